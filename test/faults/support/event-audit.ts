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
  /** When the relay did not catch up: the worker's state, what holds the outbox, and its last lines. */
  relayStall?: RelayStall;
}

interface UnpublishedEventRow {
  xid: string;
  occurred_at: string;
  aggregate_id: string;
}

/** One of the stack database's other sessions: what it runs or waits for. */
interface SessionRow {
  pid: number;
  state: string;
  wait: string | null;
  xact_age_s: number | null;
  query: string;
}

interface RelayStall {
  workerRunning: boolean;
  oldestUnpublished: UnpublishedEventRow | undefined;
  sessions: SessionRow[];
  workerTail: string;
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

const OLDEST_UNPUBLISHED = `SELECT xid::text, occurred_at::text, aggregate_id::text FROM outbox_events
  WHERE tenant_id = $1 AND published_at IS NULL ORDER BY xid, position LIMIT 1`;
const SESSIONS = `SELECT pid, state, wait_event_type || ':' || wait_event AS wait,
       extract(epoch FROM now() - xact_start)::int AS xact_age_s, left(query, 160) AS query
  FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;

async function diagnoseRelayStall(stack: LedgerStack, tenantId: string): Promise<RelayStall> {
  return {
    workerRunning: stack.worker?.running ?? false,
    oldestUnpublished: (await stack.sql<UnpublishedEventRow>(OLDEST_UNPUBLISHED, [tenantId]))[0],
    sessions: await stack.sql<SessionRow>(SESSIONS),
    workerTail: stack.worker?.tail() ?? 'no worker',
  };
}

/** Every committed outbox event against what the JetStream stream holds. */
export async function auditEvents(
  stack: LedgerStack,
  tenantId: string,
  natsUrl: string,
  stream: string,
): Promise<EventAudit> {
  const unpublishedAfterWait = await waitForRelay(stack, tenantId, 60_000);
  const relayStall = unpublishedAfterWait === 0 ? undefined : await diagnoseRelayStall(stack, tenantId);
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
    relayStall,
  };
}

/** The events after a fault test: the relay caught up and every committed event reached JetStream, nothing else. */
export function expectEventsDelivered(events: EventAudit): void {
  expect(events.unpublishedAfterWait, `the relay caught up: ${JSON.stringify(events.relayStall, null, 1)}`).toBe(0);
  expect(events.missing, 'every committed event reached JetStream').toEqual([]);
  expect(events.unknown).toEqual([]);
  expect(events.deliveredDistinct).toBe(events.committed);
}
