import { Injectable } from '@nestjs/common';
import { type SqlExecutor } from '@ledger/db';
import { newId } from '@ledger/ids';
import type { NewEvent } from './outbox-event';

/**
 * The INSERT of a set of events, for a statement whose `$1` is the tenant id and whose parameters
 * from `$first` on are `outboxInsertParams(events)`. A writer may embed it as a CTE of its own
 * statement (the posting path does, to save a round trip), or run it alone (`OutboxWriter.append`).
 * The events' data travel as one JSON array, not as a text[] of JSON documents: a batch's events
 * hold close to a megabyte of JSON, and quoting every one of its characters into an array literal
 * (and PostgreSQL parsing it back) was a large share of a batch's time under its account locks.
 */
export function outboxInsertSql(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
SELECT $1, e.id, e.type, e.aggregate_type, e.aggregate_id, e.aggregate_version, e.data
  FROM ROWS FROM (unnest(${p(0)}::uuid[]), unnest(${p(1)}::text[]), unnest(${p(2)}::text[]), unnest(${p(3)}::uuid[]),
                  unnest(${p(4)}::int8[]), json_array_elements(${p(5)}::json))
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
    JSON.stringify(events.map((event) => event.data)),
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
