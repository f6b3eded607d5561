import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Answer } from '../../support/http-json';
import { type PaymentTenant, orderBody } from '../../support/payment-fixtures';
import type { LedgerStack } from './ledger-stack';
import { describeFailure, isRetryable } from './posting-load';
import type { SeededRandom } from './seeded-random';

/** One order as first sent; a retry sends exactly this again (same key, same body). */
export interface PlannedOrder {
  index: number;
  idempotencyKey: string;
  body: Record<string, unknown>;
  /** Called off as soon as it is created, with this key (the worker may have taken it first: 409 then). */
  cancelKey: string | null;
}

export interface CreatedOrder {
  index: number;
  id: string;
  holdId: string;
}

const AMOUNT_MINOR_MAX = 100_000;
/** The share of orders the load tries to cancel at once, racing the worker. */
const CANCEL_SHARE = 0.1;
/** Sends of one request at most (a bound, not a threshold): the API is down for a restart at most. */
const SENDS_MAX = 400;
const UNANSWERED_PAUSE_MS = 150;

/** `count` orders with seeded amounts, each with its own key and externalRef. */
export function planOrders(random: SeededRandom, tenant: PaymentTenant, count: number): PlannedOrder[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    idempotencyKey: randomUUID(),
    body: orderBody(tenant, String(random.between(1, AMOUNT_MINOR_MAX)), { externalRef: `fault-order-${index}` }),
    cancelKey: random.next() < CANCEL_SHARE ? randomUUID() : null,
  }));
}

/**
 * Clients creating payment orders (and cancelling some) while processes are killed: a request without an
 * answer, or with a retryable one, is sent again with its same key and body until it is answered.
 */
export class PaymentOrderLoad {
  readonly created: CreatedOrder[] = [];
  /** Answers and failures seen, by status and code ("202", "409 PAYMENT_ORDER_NOT_CANCELLABLE", "no answer: ..."). */
  readonly seen = new Map<string, number>();
  /** Answers other than the expected ones: none is expected in this load. */
  readonly refused: { index: number; answer: unknown }[] = [];
  readonly internalErrors: unknown[] = [];
  /** Orders whose request was never answered within SENDS_MAX sends. */
  readonly unanswered: number[] = [];
  readonly cancels = { asked: 0, cancelled: 0, tooLate: 0 };
  sent = 0;
  /** Requests that needed more than one send. */
  retried = 0;

  constructor(
    private readonly stack: LedgerStack,
    private readonly posterKey: string,
  ) {}

  /** `clients` clients share the orders, order i not sent before `spreadMs * i / count` into the run. */
  async run(orders: readonly PlannedOrder[], clients: number, spreadMs: number): Promise<void> {
    const startedAt = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let index = next++; index < orders.length; index = next++) {
          await sleep(Math.max(0, startedAt + (spreadMs * index) / orders.length - Date.now()));
          await this.create(orders[index]!);
        }
      }),
    );
  }

  private async create(order: PlannedOrder): Promise<void> {
    const answer = await this.untilAnswered('/v1/payment-orders', order.idempotencyKey, order.body);
    if (answer === undefined) return void this.unanswered.push(order.index);
    if (answer.status !== 202) return void this.refused.push({ index: order.index, answer: answer.body });
    this.created.push({ index: order.index, id: answer.body.id, holdId: answer.body.holdId });
    if (order.cancelKey !== null) await this.cancel(order, order.cancelKey, answer.body.id);
  }

  private async cancel(order: PlannedOrder, key: string, id: string): Promise<void> {
    this.cancels.asked++;
    const answer = await this.untilAnswered(`/v1/payment-orders/${id}/cancel`, key, {});
    if (answer === undefined) return void this.unanswered.push(order.index);
    if (answer.status === 200 && answer.body.status === 'cancelled') this.cancels.cancelled++;
    else if (answer.status === 409 && answer.body?.error?.code === 'PAYMENT_ORDER_NOT_CANCELLABLE')
      this.cancels.tooLate++;
    else this.refused.push({ index: order.index, answer: answer.body });
  }

  /** The first answer that is not retryable; undefined when none came within SENDS_MAX sends. */
  private async untilAnswered(path: string, idempotencyKey: string, body: unknown): Promise<Answer | undefined> {
    for (let send = 1; send <= SENDS_MAX; send++) {
      if (send === 2) this.retried++;
      if (send > 1) await sleep(UNANSWERED_PAUSE_MS);
      this.sent++;
      let answer: Answer;
      try {
        answer = await this.stack.request('POST', path, { key: this.posterKey, idempotencyKey, body });
      } catch (error) {
        this.count(`no answer: ${describeFailure(error)}`);
        continue;
      }
      const code = answer.body?.error?.code;
      // A replay after a crash: the first send committed, but its answer was lost with the process.
      const replayed = answer.headers.get('idempotent-replayed') === 'true' ? ' replayed' : '';
      this.count(code === undefined ? `${answer.status}${replayed}` : `${answer.status} ${code}`);
      if (answer.status === 500) this.internalErrors.push(answer.body);
      if (!isRetryable(answer.status, code)) return answer;
    }
    return undefined;
  }

  private count(label: string): void {
    this.seen.set(label, (this.seen.get(label) ?? 0) + 1);
  }
}
