import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import type { NewEvent } from './outbox-event';
import { INSERT_EVENTS, type OutboxInsertParams } from './outbox.sql';

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

/** Writes events in the current (ambient) transaction, so an event exists exactly when its change does. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  async append(tenantId: string, events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    assert.ok(this.db.inTransaction, 'events are written in the transaction of the change they record');
    await this.db.query(INSERT_EVENTS, { tenantId, ...outboxInsertParams(events) });
  }
}
