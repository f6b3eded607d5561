import { Injectable } from '@nestjs/common';
import { type SqlExecutor, newId } from '@ledger/db';
import type { NewEvent } from './outbox-event';

const INSERT_EVENTS = `
INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
SELECT $1, e.id, e.type, e.aggregate_type, e.aggregate_id, e.aggregate_version, e.data::jsonb
  FROM unnest($2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::int8[], $7::text[])
       AS e(id, type, aggregate_type, aggregate_id, aggregate_version, data)`;

/** Writes events in the caller's transaction, so an event exists exactly when its change does. */
@Injectable()
export class OutboxWriter {
  async append(tx: SqlExecutor, tenantId: string, events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    await tx.query(INSERT_EVENTS, [
      tenantId,
      events.map(() => newId()),
      events.map((event) => event.type),
      events.map((event) => event.aggregateType),
      events.map((event) => event.aggregateId),
      events.map((event) => event.aggregateVersion),
      events.map((event) => JSON.stringify(event.data)),
    ]);
  }
}
