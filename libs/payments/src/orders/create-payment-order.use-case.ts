import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { newId } from '@ledger/ids';
import { AccountReader, PostTransactionUseCase, postTransactionSchema } from '@ledger/ledger';
import { OutboxRepository } from '@ledger/outbox';
import { ConnectorRepository } from '../connectors/connector.repository';
import { legsOf, postingRefs } from '../domain/payment-order';
import type { CreatePaymentOrderRequest } from './create-payment-order.schema';
import { orderEvent } from './order-event';
import { OrderRepository } from './order.repository';
import { STEPS_SHOWN_MAX } from './payment-order-reads.use-cases';
import { type PaymentOrderView, paymentOrderView } from './payment-order.view';

/**
 * How long the reserving hold lives: far beyond every step's deadline, so that it does not lapse under
 * an order the provider is still working on (a stuck order is a ticket long before).
 */
const HOLD_LIFETIME_MS = 60 * 24 * 3600 * 1000;

/**
 * Starts a payment order: the `reserve` step runs here, in the request's transaction (the order, its
 * hold toward the connector's clearing account, the first step and the `payment_order.reserved` event
 * are written together or not at all), so a source that cannot cover the amount is a 422 with nothing
 * stored. The worker takes it from there.
 */
@Injectable()
export class CreatePaymentOrderUseCase {
  constructor(
    private readonly db: Database,
    private readonly connectors: ConnectorRepository,
    private readonly accounts: AccountReader,
    private readonly orders: OrderRepository,
    private readonly postTransaction: PostTransactionUseCase,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute(command: {
    tenantId: string;
    actor: string;
    request: CreatePaymentOrderRequest;
  }): Promise<PaymentOrderView> {
    const { tenantId, actor, request } = command;
    const connector = await this.connectors.get(tenantId, request.connector);
    if (connector === undefined) {
      throw new DomainError('NOT_FOUND', `connector ${request.connector} not found`, {
        fields: [{ path: 'connector', message: 'no such connector' }],
      });
    }
    const source = await this.accounts.findByRef(tenantId, request.sourceAccount);
    if (source === undefined) {
      throw new DomainError('ACCOUNT_NOT_FOUND', `account ${request.sourceAccount} not found`, {
        fields: [{ path: 'sourceAccount', message: 'no such account' }],
      });
    }
    for (const [what, currency] of [
      ['sourceAccount', source.currency],
      ['connector', connector.currency],
    ] as const) {
      if (currency !== request.currency) {
        throw new DomainError('CURRENCY_MISMATCH', `the ${what} is in ${currency}, the order in ${request.currency}`, {
          fields: [{ path: 'currency', message: `${what} is in ${currency}` }],
        });
      }
    }
    const now = new Date();
    const id = newId(now.getTime());
    await this.db.transaction('read committed', async () => {
      await this.refuseTakenRef(tenantId, request.externalRef);
      const { transaction: hold } = await this.postTransaction.execute({
        tenantId,
        actor,
        request: postTransactionSchema.parse({
          externalRef: postingRefs(id).reserve,
          description: request.description ?? `Payment order ${id}`,
          metadata: { paymentOrderId: id },
          entries: legsOf({
            sourceAccountId: source.id,
            clearingAccountId: connector.clearing_account_id,
            amountMinor: request.amount,
            currency: request.currency,
          }),
          pending: { expiresAt: new Date(now.getTime() + HOLD_LIFETIME_MS).toISOString() },
        }),
      });
      const inserted = await this.orders.insert({
        tenantId,
        id,
        connectorId: connector.id,
        direction: request.direction,
        sourceAccountId: source.id,
        amountMinor: request.amount,
        currency: request.currency,
        counterparty: request.counterparty,
        externalRef: request.externalRef ?? null,
        description: request.description ?? null,
        metadata: request.metadata,
        holdId: hold.id,
        deadlineAt: new Date(now.getTime() + connector.submit_deadline_seconds * 1000),
        actor,
        createdAt: now,
      });
      // A concurrent order took the reference after the check: this one is undone, hold and all.
      if (!inserted) {
        await this.refuseTakenRef(tenantId, request.externalRef);
        throw new DomainError('EXTERNAL_REF_CONFLICT', `a payment order has externalRef ${request.externalRef}`);
      }
      await this.orders.addStep({
        tenantId,
        orderId: id,
        step: 'reserve',
        outcome: 'done',
        statusAfter: 'reserved',
        detail: { holdId: hold.id, clearingAccount: connector.clearing_account_code },
        actor,
      });
      await this.outbox.append(tenantId, [
        orderEvent({
          id,
          version: 1,
          status: 'reserved',
          previousStatus: null,
          connector: connector.name,
          amountMinor: request.amount,
          currency: request.currency,
          externalRef: request.externalRef ?? null,
          providerPaymentId: null,
          transactionId: hold.id,
        }),
      ]);
    });
    const order = (await this.orders.get(tenantId, id))!;
    return paymentOrderView(order, now, await this.orders.steps(tenantId, id, STEPS_SHOWN_MAX));
  }

  private async refuseTakenRef(tenantId: string, externalRef: string | undefined): Promise<void> {
    if (externalRef === undefined) return;
    const existing = await this.orders.getByExternalRef(tenantId, externalRef);
    if (existing === undefined) return;
    throw new DomainError('EXTERNAL_REF_CONFLICT', `payment order ${existing.id} has externalRef ${externalRef}`, {
      paymentOrderId: existing.id,
      externalRef,
    });
  }
}
