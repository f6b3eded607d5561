import { Injectable } from '@nestjs/common';
import { type SqlExecutor, newId } from '@ledger/db';
import type { NewEvent } from './outbox-event';

/**
 * The INSERT of a set of events, for a statement whose `$1` is the tenant id and whose parameters
 * from `$first` on are `outboxInsertParams(events)`. A writer may embed it as a CTE of its own
 * statement (the posting path does, to save a round trip), or run it alone (`OutboxWriter.append`).
 */
export function outboxInsertSql(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
SELECT $1, e.id, e.type, e.aggregate_type, e.aggregate_id, e.aggregate_version, e.data::json
  FROM unnest(${p(0)}::uuid[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::uuid[], ${p(4)}::int8[], ${p(5)}::text[])
       AS e(id, type, aggregate_type, aggregate_id, aggregate_version, data)`;
}

export const OUTBOX_INSERT_PARAMS = 6;

export function outboxInsertParams(events: readonly NewEvent[]): unknown[] {
  return [
    events.map(() => newId()),
    events.map((event) => event.type),
    events.map((event) => event.aggregateType),
    events.map((event) => event.aggregateId),
    events.map((event) => event.aggregateVersion),
    events.map((event) => JSON.stringify(event.data)),
  ];
}

const INSERT_EVENTS = outboxInsertSql(2);

/** Writes events in the caller's transaction, so an event exists exactly when its change does. */
@Injectable()
export class OutboxWriter {
  async append(tx: SqlExecutor, tenantId: string, events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    await tx.query(INSERT_EVENTS, [tenantId, ...outboxInsertParams(events)]);
  }
}
