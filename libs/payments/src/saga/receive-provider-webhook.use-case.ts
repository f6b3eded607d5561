import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { ConnectorFactory } from '../connectors/connector-factory';
import { ConnectorRepository } from '../connectors/connector.repository';
import { submitKey } from '../domain/payment-order';
import { OrderRepository } from '../orders/order.repository';
import type { PaymentOrderStatus } from '../domain/payment-order';
import { OrderTransitions } from './order-transitions';

export interface ProviderWebhookOutcome {
  /** The order the webhook was about, or null when it named none of this connector's orders. */
  paymentOrderId: string | null;
  status: PaymentOrderStatus | null;
}

/**
 * A provider's signed webhook: a hint that one of its payments changed, carrying the payment's state.
 * Applied like a poll's answer, through the same transitions, so a late, repeated or out-of-order
 * webhook moves nothing that has moved already. A webhook about no order of this connector is answered
 * 200 too (the provider would retry it forever otherwise), and changes nothing.
 */
@Injectable()
export class ReceiveProviderWebhookUseCase {
  constructor(
    private readonly connectors: ConnectorRepository,
    private readonly factory: ConnectorFactory,
    private readonly orders: OrderRepository,
    private readonly transitions: OrderTransitions,
  ) {}

  async execute(command: {
    connectorId: string;
    signature: string | undefined;
    rawBody: Buffer;
  }): Promise<ProviderWebhookOutcome> {
    const row = isUuid(command.connectorId) ? await this.connectors.find(command.connectorId.toLowerCase()) : undefined;
    if (row === undefined) throw new DomainError('NOT_FOUND', `connector ${command.connectorId} not found`);
    const check = this.factory
      .for(row)
      .verifyWebhook(command.signature, command.rawBody, Math.floor(Date.now() / 1000));
    if (!check.ok) {
      if (check.reason === 'bad_signature')
        throw new DomainError('UNAUTHENTICATED', 'the webhook signature is not valid');
      throw new DomainError('VALIDATION_FAILED', 'the webhook body is not a payment notification');
    }
    const { payment, eventId } = check.notification;
    const order = isUuid(payment.reference) ? await this.orders.get(row.tenant_id, payment.reference) : undefined;
    if (order === undefined || order.connector_id !== row.id || payment.idempotencyKey !== submitKey(order.id)) {
      return { paymentOrderId: null, status: null };
    }
    const after = await this.transitions.follow(order, payment, { via: 'webhook', eventId }, 'status');
    return { paymentOrderId: order.id, status: after.status };
  }
}
