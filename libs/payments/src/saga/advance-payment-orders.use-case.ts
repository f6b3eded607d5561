import { Injectable, Logger } from '@nestjs/common';
import { SlotPool, backoffDelayMs } from '@ledger/outbox';
import type { PaymentConnector, ProviderAnswer } from '../connectors/connector';
import { ConnectorFactory } from '../connectors/connector-factory';
import { ConnectorRepository } from '../connectors/connector.repository';
import { DRIVEN_STATUSES, submitKey } from '../domain/payment-order';
import { OrderRepository } from '../orders/order.repository';
import type { OrderRow } from '../orders/orders.sql';
import { OrderTransitions } from './order-transitions';

/** Orders one worker advances at once (their provider calls run side by side); at most this many a pass. */
export const ORDERS_IN_FLIGHT_MAX = 32;
/** After an unknown outcome the provider is asked again by the same key, sooner at first. */
const UNKNOWN_RETRY_BASE_MS = 500;
const UNKNOWN_RETRY_CAP_MS = 60_000;

/**
 * The saga's worker: claims due orders and carries each one step further. The provider is called
 * outside any database transaction; what it answered is then written in one transition of its own. A
 * crash anywhere leaves the order in its last written state with a lease that runs out, and the next
 * pass resumes from there: an order found `submitting` is first asked about by its key (the provider may
 * have it), and submitted again (by the same key) only when the provider says it has nothing.
 *
 * The worker keeps up to ORDERS_IN_FLIGHT_MAX orders in flight (`startDue`): each frees its slot when its
 * step is written, so one provider call that runs into its timeout holds its own order, never the others.
 */
@Injectable()
export class AdvancePaymentOrdersUseCase {
  private readonly logger = new Logger('payment-orders');
  private readonly inFlight = new SlotPool(ORDERS_IN_FLIGHT_MAX);

  constructor(
    private readonly orders: OrderRepository,
    private readonly connectors: ConnectorRepository,
    private readonly factory: ConnectorFactory,
    private readonly transitions: OrderTransitions,
  ) {}

  /**
   * The worker's step: waits for a free slot when all are taken, then claims due orders for the free
   * slots and starts advancing each; returns how many it claimed (0: none was due).
   */
  async startDue(): Promise<number> {
    await this.inFlight.slot();
    const claimed = await this.orders.claimDue(this.inFlight.free);
    for (const order of claimed) this.inFlight.start(this.advanceLogged(order));
    return claimed.length;
  }

  /** Called each time an order's step is written and its slot is free. */
  whenSlotFrees(listener: () => void): void {
    this.inFlight.whenFree(listener);
  }

  /** Resolves when every order started has its step written (on shutdown, after the last step). */
  drain(): Promise<void> {
    return this.inFlight.drain();
  }

  /**
   * One pass that ends when each order it claimed is one step further; how many (0: none was due). The
   * tests drive the saga with it in their own process, a pass at a time; the worker uses `startDue`.
   */
  async execute(): Promise<number> {
    const claimed = await this.orders.claimDue(ORDERS_IN_FLIGHT_MAX);
    await Promise.all(claimed.map((order) => this.advanceLogged(order)));
    return claimed.length;
  }

  private advanceLogged({ tenantId, id }: { tenantId: string; id: string }): Promise<void> {
    return this.advance(tenantId, id).catch((error: unknown) => {
      // The order keeps its lease and is taken again when it runs out.
      this.logger.error(`payment order ${id}: ${error instanceof Error ? error.stack : String(error)}`);
    });
  }

  private async advance(tenantId: string, id: string): Promise<void> {
    const order = await this.orders.get(tenantId, id);
    if (order === undefined || !DRIVEN_STATUSES.has(order.status)) return;
    const row = (await this.connectors.get(tenantId, order.connector_id))!;
    const connector = this.factory.for(row);
    if (order.status === 'reserved') {
      const marked = await this.transitions.apply(tenantId, id, async (locked) =>
        locked.status === 'reserved'
          ? {
              change: { status: 'submitting' },
              step: { step: 'submit', outcome: 'pending', detail: { idempotencyKey: submitKey(locked.id) } },
            }
          : null,
      );
      if (marked !== undefined) await this.submit(marked, connector);
      return;
    }
    const answer = await connector.status(submitKey(order.id));
    if (answer.kind === 'not_found' && order.status === 'submitting') {
      await this.record(order, 'status', answer);
      await this.submit(order, connector);
      return;
    }
    await this.handle(order, 'status', answer);
  }

  private async submit(order: OrderRow, connector: PaymentConnector): Promise<void> {
    const answer = await connector.submit({
      idempotencyKey: submitKey(order.id),
      reference: order.id,
      direction: order.direction,
      amountMinor: order.amount_minor,
      currency: order.currency,
      counterparty: order.counterparty as never,
      description: order.description,
    });
    await this.handle(order, 'submit', answer);
  }

  private async handle(order: OrderRow, step: 'submit' | 'status', answer: ProviderAnswer): Promise<void> {
    switch (answer.kind) {
      case 'payment':
        await this.transitions.follow(order, answer.payment, answer.detail, step);
        return;
      case 'refused':
        await this.transitions.apply(order.tenant_id, order.id, async (locked) => {
          if (locked.status !== 'submitting') return null;
          await this.transitions.release(locked);
          return {
            change: { status: 'rejected', lastError: answer.reason, nextAttemptAt: null, deadlineAt: null },
            step: { step: 'reject', outcome: 'refused', detail: answer.detail },
          };
        });
        return;
      default:
        // unknown (or not_found for an order already past submit, which a provider should never say)
        await this.record(order, step, answer);
    }
  }

  /** An answer that moves nothing: written down, and the order asked about again after a backoff. */
  private async record(order: OrderRow, step: 'submit' | 'status', answer: ProviderAnswer): Promise<void> {
    await this.transitions.apply(order.tenant_id, order.id, async (locked) => {
      if (locked.status !== order.status) return null;
      const attempts = locked.attempts + 1;
      const delayMs = backoffDelayMs(attempts, UNKNOWN_RETRY_BASE_MS, UNKNOWN_RETRY_CAP_MS) + UNKNOWN_RETRY_BASE_MS;
      const reason = answer.kind === 'unknown' ? answer.reason : answer.kind;
      return {
        change: { attempts, nextAttemptAt: new Date(Date.now() + delayMs), lastError: reason },
        step: { step, outcome: answer.kind === 'not_found' ? 'not_found' : 'unknown', detail: answer.detail },
      };
    });
  }
}
