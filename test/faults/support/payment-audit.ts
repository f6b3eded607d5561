import { setTimeout as sleep } from 'node:timers/promises';
import { PAYMENTS_LISTED_MAX } from '../../../apps/provider-sim/src/admin-routes';
import type { RunningProviderSim } from '../../../apps/provider-sim/src/server';
import { RETURN_DELAY_MS_MAX } from '../../../apps/provider-sim/src/sim-provider';
import { simExecutions, simPayments, simWebhookStats } from '../../support/payment-fixtures';
import type { LedgerStack } from './ledger-stack';
import { HOLD_RESOLUTIONS, ORDERS, ORDER_EVENTS, type OrderAuditRow, STATUS_COUNTS, STEPS } from './payment-audit.sql';

/** Where an order rests: nothing more happens to it unless a return comes (settled). */
const AT_REST = new Set(['settled', 'returned', 'rejected', 'cancelled']);
/** What the provider must hold for an order the ledger shows in each state (undefined: no payment). */
const PROVIDER_STATUS_OF: Record<string, string | undefined> = {
  settled: 'executed',
  returned: 'returned',
  rejected: 'rejected',
  cancelled: undefined,
};
const POLL_MS = 250;

export type StatusCounts = Record<string, { n: number; stuck: number }>;

export async function statusCounts(stack: LedgerStack, tenantId: string): Promise<StatusCounts> {
  const rows = await stack.sql<{ status: string; n: number; stuck: number }>(STATUS_COUNTS, [tenantId]);
  return Object.fromEntries(rows.map((row) => [row.status, { n: row.n, stuck: row.stuck }]));
}

/**
 * Waits (bounded) until every order is at rest or stuck (past its deadline: a ticket shows it); throws
 * with the counts by status when the bound passes.
 */
export async function waitForOrdersAtRest(stack: LedgerStack, tenantId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await statusCounts(stack, tenantId);
    const moving = Object.entries(counts).filter(([status, count]) => !AT_REST.has(status) && count.n > count.stuck);
    if (moving.length === 0) return counts;
    if (Date.now() > deadline) {
      throw new Error(`orders not at rest within ${timeoutMs} ms: ${JSON.stringify(counts)}\n${stack.tails()}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * Waits (bounded) until the simulator can send nothing more: no webhook waiting or in flight, and its
 * newest execution older than the longest delay of a `return` fault (a return may still come before).
 */
export async function waitForSimQuiet(sim: RunningProviderSim, timeoutMs: number): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [stats, { payments }] = await Promise.all([simWebhookStats(sim), simPayments(sim, PAYMENTS_LISTED_MAX)]);
    const newest = Math.max(0, ...payments.map((payment) => Date.parse(payment.executedAt ?? '') || 0));
    if (stats.pending === 0 && Date.now() - newest > 2 * RETURN_DELAY_MS_MAX) return stats;
    if (Date.now() > deadline) throw new Error(`the simulator still sends: ${JSON.stringify(stats)}`);
    await sleep(POLL_MS);
  }
}

export interface ProviderAudit {
  orders: OrderAuditRow[];
  /** Keys the simulator executed more than once. */
  executedTwice: string[];
  /** Orders whose execution count does not fit their state (settled/returned once, rejected/cancelled never). */
  executionsNotFitting: { id: string; status: string; executions: number }[];
  /** Orders whose payment at the simulator is not in the state the ledger's state calls for. */
  providerDisagrees: { id: string; status: string; provider: string | undefined }[];
  /** Executions or payments at the simulator of no order of the tenant. */
  foreign: string[];
  executions: number;
  providerPayments: Record<string, number>;
  /** What the provider executed and did not return: what must have left the wallet. */
  paidOutMinor: bigint;
  paymentsListed: number;
  paymentsTotal: number;
}

/** The ledger's orders against the simulator's own book of executions and payments. */
export async function auditProvider(stack: LedgerStack, tenantId: string, sim: RunningProviderSim) {
  const orders = await stack.sql<OrderAuditRow>(ORDERS, [tenantId]);
  const executions = await simExecutions(sim);
  const { total, payments } = await simPayments(sim, PAYMENTS_LISTED_MAX);
  const paymentOf = new Map(payments.map((payment) => [payment.reference as string, payment]));
  const keys = new Set(orders.map((order) => `${order.id}:submit`));
  const audit: ProviderAudit = {
    orders,
    executedTwice: Object.keys(executions).filter((key) => executions[key]! > 1),
    executionsNotFitting: [],
    providerDisagrees: [],
    foreign: [
      ...Object.keys(executions).filter((key) => !keys.has(key)),
      ...payments.filter((payment) => !keys.has(payment.idempotencyKey)).map((payment) => payment.id),
    ],
    executions: Object.values(executions).reduce((sum, count) => sum + count, 0),
    providerPayments: {},
    paidOutMinor: 0n,
    paymentsListed: payments.length,
    paymentsTotal: total,
  };
  for (const payment of payments) {
    audit.providerPayments[payment.status] = (audit.providerPayments[payment.status] ?? 0) + 1;
    if (payment.status === 'executed') audit.paidOutMinor += BigInt(payment.amount);
  }
  for (const order of orders) {
    const count = executions[`${order.id}:submit`] ?? 0;
    if (count !== (['settled', 'returned'].includes(order.status) ? 1 : 0)) {
      audit.executionsNotFitting.push({ id: order.id, status: order.status, executions: count });
    }
    const provider = paymentOf.get(order.id)?.status;
    if (!AT_REST.has(order.status) || provider !== PROVIDER_STATUS_OF[order.status]) {
      audit.providerDisagrees.push({ id: order.id, status: order.status, provider });
    }
  }
  return audit;
}

export interface StateEventAudit {
  steps: number;
  stateChanges: number;
  events: number;
  /** Orders whose events are not exactly their state changes, in order, once each. */
  mismatches: { id: string; changes: string[]; events: string[] }[];
  /** Payment order events naming no order of the tenant. */
  strayEvents: string[];
  /** Steps by `step:outcome` (submit:unknown is a provider call whose outcome was not known). */
  outcomes: Record<string, number>;
}

/** Each order's `payment_order.*` events against its steps whose status differs from the step before. */
export async function auditStateEvents(stack: LedgerStack, tenantId: string): Promise<StateEventAudit> {
  const steps = await stack.sql<{ order_id: string; step: string; outcome: string; status_after: string }>(STEPS, [
    tenantId,
  ]);
  const events = await stack.sql<{ id: string; order_id: string; type: string }>(ORDER_EVENTS, [tenantId]);
  const changes = new Map<string, string[]>();
  const outcomes: Record<string, number> = {};
  for (const step of steps) {
    const seen = changes.get(step.order_id) ?? [];
    if (seen.at(-1) !== step.status_after) seen.push(step.status_after);
    changes.set(step.order_id, seen);
    const label = `${step.step}:${step.outcome}`;
    outcomes[label] = (outcomes[label] ?? 0) + 1;
  }
  const eventsOf = new Map<string, string[]>();
  for (const event of events) {
    eventsOf.set(event.order_id, [...(eventsOf.get(event.order_id) ?? []), event.type]);
  }
  const mismatches = [];
  for (const [id, statuses] of changes) {
    const expected = statuses.map((status) => `payment_order.${status}`);
    const found = eventsOf.get(id) ?? [];
    if (JSON.stringify(expected) !== JSON.stringify(found)) mismatches.push({ id, changes: expected, events: found });
  }
  return {
    steps: steps.length,
    stateChanges: [...changes.values()].reduce((sum, statuses) => sum + statuses.length, 0),
    events: events.length,
    mismatches: mismatches.slice(0, 20),
    strayEvents: events.filter((event) => !changes.has(event.order_id)).map((event) => event.id),
    outcomes,
  };
}

export interface HoldAudit {
  /** Every transaction the orders made: holds, their resolutions, settlements and returns. */
  transactionIds: string[];
  /** Orders whose hold is not resolved exactly once, as their state says (posted, or voided). */
  wrongResolutions: { id: string; status: string; resolutions: string[] }[];
}

/** Each order's hold resolved once: posted into its settlement (settled, returned) or voided. */
export async function auditHolds(stack: LedgerStack, tenantId: string, orders: readonly OrderAuditRow[]) {
  const rows = await stack.sql<{ order_id: string; resolution_id: string; resolution_status: string }>(
    HOLD_RESOLUTIONS,
    [tenantId],
  );
  const resolutionsOf = new Map<string, { id: string; status: string }[]>();
  for (const row of rows) {
    const list = resolutionsOf.get(row.order_id) ?? [];
    list.push({ id: row.resolution_id, status: row.resolution_status });
    resolutionsOf.set(row.order_id, list);
  }
  const audit: HoldAudit = { transactionIds: rows.map((row) => row.resolution_id), wrongResolutions: [] };
  for (const order of orders) {
    for (const id of [order.hold_id, order.settle_transaction_id, order.return_transaction_id]) {
      if (id !== null) audit.transactionIds.push(id);
    }
    const resolutions = resolutionsOf.get(order.id) ?? [];
    const paid = order.status === 'settled' || order.status === 'returned';
    const fits =
      resolutions.length === 1 &&
      (paid
        ? resolutions[0]!.status === 'posted' && resolutions[0]!.id === order.settle_transaction_id
        : resolutions[0]!.status === 'voided' && order.settle_transaction_id === null);
    if (!fits) {
      audit.wrongResolutions.push({
        id: order.id,
        status: order.status,
        resolutions: resolutions.map((resolution) => `${resolution.status} ${resolution.id}`),
      });
    }
  }
  audit.transactionIds = [...new Set(audit.transactionIds)];
  return audit;
}
