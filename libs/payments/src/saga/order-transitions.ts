import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import {
  PostTransactionUseCase,
  ResolveHoldUseCase,
  ReverseTransactionUseCase,
  postTransactionSchema,
} from '@ledger/ledger';
import { OutboxRepository, backoffDelayMs } from '@ledger/outbox';
import type { ProviderPayment } from '../connectors/connector';
import { type ProviderMove, legsOf, nextMove, postingRefs } from '../domain/payment-order';
import { orderEvent } from '../orders/order-event';
import { OrderRepository } from '../orders/order.repository';
import type { OrderChange, OrderRow } from '../orders/orders.sql';

/** An accepted payment not yet executed is asked about again, less often as it waits. */
const PENDING_POLL_BASE_MS = 1_000;
const PENDING_POLL_CAP_MS = 5 * 60_000;
/** Polls of one order whose answer is kept on its step; later ones keep only that they happened. */
export const POLL_STEPS_RECORDED_MAX = 100;

/** Who the saga's own steps are recorded as. */
export const SAGA_ACTOR = 'payment-orders';

export interface StepRecord {
  step: 'reserve' | 'submit' | 'status' | 'settle' | 'reject' | 'cancel' | 'return';
  outcome: 'done' | 'unknown' | 'refused' | 'not_found' | 'pending' | 'failed';
  detail: Record<string, unknown>;
}

type Change = Partial<Omit<OrderChange, 'tenantId' | 'id'>>;

/** The columns of an order as they stand, to which a transition applies its change. */
function current(order: OrderRow): Omit<OrderChange, 'tenantId' | 'id'> {
  return {
    status: order.status,
    settleTransactionId: order.settle_transaction_id,
    returnTransactionId: order.return_transaction_id,
    providerPaymentId: order.provider_payment_id,
    providerStatus: order.provider_status,
    attempts: order.attempts,
    nextAttemptAt: order.next_attempt_at,
    deadlineAt: order.deadline_at,
    lastError: order.last_error,
  };
}

const QUIET = { nextAttemptAt: null, deadlineAt: null } as const;

/**
 * Every change of a payment order: one short transaction each, which locks the order, checks that the
 * change still applies to the row as it now is (a webhook, the worker and a cancel may race), makes the
 * ledger's side of it, and records the step and, for a change of state, its outbox event.
 */
@Injectable()
export class OrderTransitions {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderRepository,
    private readonly outbox: OutboxRepository,
    private readonly postTransaction: PostTransactionUseCase,
    private readonly resolveHold: ResolveHoldUseCase,
    private readonly reverse: ReverseTransactionUseCase,
  ) {}

  /**
   * Runs `decide` on the locked order; what it answers is written with the step. Undefined (and nothing
   * written) when the order is gone or `decide` answers null: the change no longer applies.
   */
  async apply(
    tenantId: string,
    id: string,
    decide: (order: OrderRow) => Promise<{ change: Change; step: StepRecord } | null>,
    actor = SAGA_ACTOR,
  ): Promise<OrderRow | undefined> {
    return this.db.transaction('read committed', async () => {
      const order = await this.orders.lock(tenantId, id);
      if (order === undefined) return undefined;
      const decided = await decide(order);
      if (decided === null) return undefined;
      const next = { ...current(order), ...decided.change };
      await this.orders.update({ tenantId, id, ...next });
      await this.orders.addStep({ tenantId, orderId: id, ...decided.step, statusAfter: next.status, actor });
      if (next.status !== order.status) {
        await this.outbox.append(tenantId, [
          orderEvent({
            id,
            version: order.version + 1,
            status: next.status,
            previousStatus: order.status,
            connector: order.connector_name,
            amountMinor: order.amount_minor,
            currency: order.currency,
            externalRef: order.external_ref,
            providerPaymentId: next.providerPaymentId,
            transactionId: next.returnTransactionId ?? next.settleTransactionId ?? order.hold_id,
          }),
        ]);
      }
      return (await this.orders.get(tenantId, id))!;
    });
  }

  /**
   * One move the provider's state of the payment calls for, with its posting. Null when the order has
   * moved on meanwhile (the move was made by whoever raced this one).
   */
  async move(order: OrderRow, payment: ProviderPayment, detail: Record<string, unknown>, step: StepRecord['step']) {
    return this.apply(order.tenant_id, order.id, async (locked) => {
      const move = nextMove(locked.status, payment.status);
      if (move === null) return null;
      const provider = { providerPaymentId: payment.providerId, providerStatus: payment.status, lastError: null };
      const change = await this.ledgerSide(locked, move, payment.reason);
      return { change: { ...provider, ...change }, step: { step: stepOf(move, step), outcome: 'done', detail } };
    });
  }

  /**
   * Every move the payment's state calls for, one transition each (a webhook and the worker may both
   * be here: each move re-checks the locked row), then, for a payment still pending, when to ask again.
   */
  async follow(
    order: OrderRow,
    payment: ProviderPayment,
    detail: Record<string, unknown>,
    step: StepRecord['step'],
  ): Promise<OrderRow> {
    if (payment.amountMinor !== order.amount_minor || payment.currency !== order.currency) {
      // Not what was ordered: nothing moves, and the order turns into a ticket at its deadline.
      const lastError = `the provider reports ${payment.amountMinor} ${payment.currency} for this order`;
      await this.apply(order.tenant_id, order.id, async () => ({
        change: { lastError },
        step: { step, outcome: 'failed', detail },
      }));
      return (await this.orders.get(order.tenant_id, order.id)) ?? order;
    }
    let current = order;
    for (;;) {
      const moved = await this.move(current, payment, detail, step);
      if (moved === undefined) break;
      current = moved;
    }
    if (current.status === 'submitted' && payment.status === 'pending') await this.schedulePoll(current, detail);
    return (await this.orders.get(order.tenant_id, order.id)) ?? current;
  }

  private async schedulePoll(order: OrderRow, detail: Record<string, unknown>): Promise<void> {
    await this.apply(order.tenant_id, order.id, async (locked) => {
      if (locked.status !== 'submitted') return null;
      const attempts = locked.attempts + 1;
      const delayMs = backoffDelayMs(attempts, PENDING_POLL_BASE_MS, PENDING_POLL_CAP_MS) + PENDING_POLL_BASE_MS;
      return {
        change: { attempts, nextAttemptAt: new Date(Date.now() + delayMs) },
        step: { step: 'status', outcome: 'pending', detail: attempts <= POLL_STEPS_RECORDED_MAX ? detail : {} },
      };
    });
  }

  private async ledgerSide(order: OrderRow, move: ProviderMove, reason: string | null): Promise<Change> {
    switch (move) {
      case 'submitted':
        return {
          status: 'submitted',
          attempts: 0,
          deadlineAt: new Date(Date.now() + order.settle_deadline_seconds * 1000),
        };
      case 'settled':
        return { status: 'settled', settleTransactionId: await this.settle(order), attempts: 0, ...QUIET };
      case 'returned': {
        const reversal = await this.reverse.execute({
          tenantId: order.tenant_id,
          id: order.settle_transaction_id!,
          actor: SAGA_ACTOR,
          description: `Return of payment order ${order.id}${reason ? `: ${reason}` : ''}`.slice(0, 500),
          externalRef: postingRefs(order.id).return,
        });
        return { status: 'returned', returnTransactionId: reversal.id, ...QUIET };
      }
      case 'rejected':
        await this.release(order);
        return { status: 'rejected', lastError: reason, ...QUIET };
    }
  }

  /**
   * The reserved money goes to the clearing account. A hold that lapsed meanwhile (its expiry is far
   * beyond every deadline, but an operator may have voided it) is replaced by a direct posting of the
   * same amount: the provider paid, so the ledger must say so; if the account cannot cover it now, the
   * transition fails, the order stays where it was and turns into a ticket at its deadline.
   */
  private async settle(order: OrderRow): Promise<string> {
    const refs = postingRefs(order.id);
    try {
      const posting = await this.resolveHold.execute({
        tenantId: order.tenant_id,
        holdId: order.hold_id,
        action: 'post',
        actor: SAGA_ACTOR,
        externalRef: refs.settle,
      });
      return posting.id;
    } catch (error) {
      if (!(error instanceof DomainError) || !['HOLD_EXPIRED', 'HOLD_ALREADY_RESOLVED'].includes(error.code)) {
        throw error;
      }
      // A hold past its expiry can only be released: it is, so that the money is not reserved twice.
      if (error.code === 'HOLD_EXPIRED') await this.release(order);
      const { transaction } = await this.postTransaction.execute({
        tenantId: order.tenant_id,
        actor: SAGA_ACTOR,
        request: postTransactionSchema.parse({
          externalRef: refs.settle,
          description: `Payment order ${order.id} (its hold had lapsed)`,
          metadata: { paymentOrderId: order.id },
          entries: legsOf({
            sourceAccountId: order.source_account_id,
            clearingAccountId: order.clearing_account_id,
            amountMinor: order.amount_minor,
            currency: order.currency,
          }),
        }),
      });
      return transaction.id;
    }
  }

  /** Voids the hold; one that lapsed or was voided meanwhile has nothing left to release. */
  async release(order: OrderRow): Promise<void> {
    try {
      await this.resolveHold.execute({
        tenantId: order.tenant_id,
        holdId: order.hold_id,
        action: 'void',
        actor: SAGA_ACTOR,
      });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'HOLD_ALREADY_RESOLVED') throw error;
    }
  }
}

function stepOf(move: ProviderMove, fallback: StepRecord['step']): StepRecord['step'] {
  if (move === 'settled') return 'settle';
  if (move === 'returned') return 'return';
  if (move === 'rejected') return 'reject';
  return fallback;
}
