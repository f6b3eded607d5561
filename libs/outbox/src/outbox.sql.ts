import { sql } from '@ledger/db';

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
 * parameter), or run it alone (`OutboxRepository.append`). The events' data travel as one JSON array, not
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

/** The event insert on its own (`OutboxRepository.append`). */
export const INSERT_EVENTS = sql<OutboxInsertParams>(OUTBOX_INSERT_SQL);
