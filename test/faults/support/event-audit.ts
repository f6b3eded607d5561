import { expect } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { readStream } from '../../support/jetstream-reader';
import type { LedgerStack } from './ledger-stack';

export interface EventAudit {
  committed: number;
  deliveredDistinct: number;
  /** Committed events that never reached the stream. */
  missing: string[];
  /** Stream events of the tenant that the outbox does not hold (published without committing). */
  unknown: string[];
  /** Stream messages of the tenant's events beyond the first of each id (must carry the same Nats-Msg-Id). */
  redeliveries: number;
  /** Messages whose Nats-Msg-Id is not their event's id. */
  wrongMessageIds: number;
  unpublishedAfterWait: number;
}

const UNPUBLISHED = `SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND published_at IS NULL`;
const COMMITTED = `SELECT id::text FROM outbox_events WHERE tenant_id = $1`;

/** Waits (bounded) until the worker's relay has published every committed event of the tenant. */
export async function waitForRelay(stack: LedgerStack, tenantId: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = (await stack.sql<{ n: number }>(UNPUBLISHED, [tenantId])) as [{ n: number }];
    if (n === 0 || Date.now() > deadline) return n;
    await sleep(200);
  }
}

/** Every committed outbox event against what the JetStream stream holds. */
export async function auditEvents(
  stack: LedgerStack,
  tenantId: string,
  natsUrl: string,
  stream: string,
): Promise<EventAudit> {
  const unpublishedAfterWait = await waitForRelay(stack, tenantId, 60_000);
  const committed = (await stack.sql<{ id: string }>(COMMITTED, [tenantId])).map((row) => row.id);
  const messages = (await readStream(natsUrl, stream)).filter((message) => message.event.tenantId === tenantId);
  const committedIds = new Set(committed);
  const delivered = new Set(messages.map((message) => message.event.id as string));
  return {
    committed: committed.length,
    deliveredDistinct: delivered.size,
    missing: committed.filter((id) => !delivered.has(id)).slice(0, 20),
    unknown: [...delivered].filter((id) => !committedIds.has(id)).slice(0, 20),
    redeliveries: messages.length - delivered.size,
    wrongMessageIds: messages.filter((message) => message.msgId !== message.event.id).length,
    unpublishedAfterWait,
  };
}

/** The events after a fault test: the relay caught up and every committed event reached JetStream, nothing else. */
export function expectEventsDelivered(events: EventAudit): void {
  expect(events.unpublishedAfterWait, 'the relay caught up').toBe(0);
  expect(events.missing, 'every committed event reached JetStream').toEqual([]);
  expect(events.unknown).toEqual([]);
  expect(events.deliveredDistinct).toBe(events.committed);
}
