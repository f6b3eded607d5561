import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor, sql } from '@ledger/db';
import { newId } from '@ledger/ids';
import type { NewEvent } from './outbox-event';

/** The parameters of OUTBOX_INSERT_SQL: the tenant and one array per column, in the events' order. */
export interface OutboxInsertParams {
  tenantId: string;
  eventIds: string[];
  eventTypes: string[];
  eventAggregateTypes: string[];
  eventAggregateIds: string[];
  eventAggregateVersions: bigint[];
  /** The events' data as one JSON array. */
  eventData: string;
}

/**
 * The INSERT of a set of events, over `OutboxInsertParams`. A writer may embed it as the last part of
 * a statement of its own (the posting path does, to save a round trip: its `:tenantId` is the same
 * parameter), or run it alone (`OutboxWriter.append`). The events' data travel as one JSON array, not
 * as a text[] of JSON documents: a batch's events hold close to a megabyte of JSON, and quoting every
 * one of its characters into an array literal (and PostgreSQL parsing it back) was a large share of a
 * batch's time under its account locks.
 */
export const OUTBOX_INSERT_SQL = `
INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
SELECT :tenantId, e.id, e.type, e.aggregate_type, e.aggregate_id, e.aggregate_version, e.data
  FROM ROWS FROM (unnest(:eventIds::uuid[]), unnest(:eventTypes::text[]), unnest(:eventAggregateTypes::text[]),
                  unnest(:eventAggregateIds::uuid[]), unnest(:eventAggregateVersions::int8[]),
                  json_array_elements(:eventData::json))
       AS e(id, type, aggregate_type, aggregate_id, aggregate_version, data)`;

/** The events' parameters of OUTBOX_INSERT_SQL (all but the tenant). */
export function outboxInsertParams(events: readonly NewEvent[]): Omit<OutboxInsertParams, 'tenantId'> {
  return {
    eventIds: events.map(() => newId()),
    eventTypes: events.map((event) => event.type),
    eventAggregateTypes: events.map((event) => event.aggregateType),
    eventAggregateIds: events.map((event) => event.aggregateId),
    eventAggregateVersions: events.map((event) => event.aggregateVersion),
    eventData: JSON.stringify(events.map((event) => event.data)),
  };
}

const INSERT_EVENTS = sql<OutboxInsertParams>(OUTBOX_INSERT_SQL);

/** Writes events in the current (ambient) transaction, so an event exists exactly when its change does. */
@Injectable()
export class OutboxWriter {
  constructor(private readonly db: Database) {}

  async append(tenantId: string, events: readonly NewEvent[]): Promise<void>;
  /**
   * @deprecated The transaction is the ambient one: call `append(tenantId, events)`. Kept only until
   * the callers in other libs have moved (the `tx` argument is ignored).
   */
  async append(tx: SqlExecutor, tenantId: string, events: readonly NewEvent[]): Promise<void>;
  async append(
    ...args: [tenantId: string, events: readonly NewEvent[]] | [SqlExecutor, string, readonly NewEvent[]]
  ): Promise<void> {
    const [tenantId, events] = args.length === 3 ? [args[1], args[2]] : args;
    if (events.length === 0) return;
    assert.ok(this.db.inTransaction, 'events are written in the transaction of the change they record');
    await this.db.query(INSERT_EVENTS, { tenantId, ...outboxInsertParams(events) });
  }
}
