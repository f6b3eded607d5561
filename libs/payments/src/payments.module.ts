import { Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { OutboxModule } from '@ledger/outbox';
import { ConnectorFactory } from './connectors/connector-factory';
import { ConnectorRepository } from './connectors/connector.repository';
import { ListConnectorsUseCase, RegisterConnectorUseCase } from './connectors/connector.use-cases';
import { CancelPaymentOrderUseCase } from './saga/cancel-payment-order.use-case';
import { CreatePaymentOrderUseCase } from './orders/create-payment-order.use-case';
import { OrderRepository } from './orders/order.repository';
import { PaymentOrderReader } from './orders/payment-order-reader';
import {
  CountPaymentOrdersUseCase,
  GetPaymentOrderUseCase,
  ListPaymentOrdersUseCase,
} from './orders/payment-order-reads.use-cases';
import { AdvancePaymentOrdersUseCase } from './saga/advance-payment-orders.use-case';
import { OrderTransitions } from './saga/order-transitions';
import { ReceiveProviderWebhookUseCase } from './saga/receive-provider-webhook.use-case';

const USE_CASES = [
  RegisterConnectorUseCase,
  ListConnectorsUseCase,
  CreatePaymentOrderUseCase,
  GetPaymentOrderUseCase,
  ListPaymentOrdersUseCase,
  CountPaymentOrdersUseCase,
  CancelPaymentOrderUseCase,
  AdvancePaymentOrdersUseCase,
  ReceiveProviderWebhookUseCase,
];

@Module({
  imports: [LedgerModule, OutboxModule],
  providers: [
    ConnectorRepository,
    OrderRepository,
    ConnectorFactory,
    OrderTransitions,
    PaymentOrderReader,
    ...USE_CASES,
  ],
  exports: [PaymentOrderReader, ...USE_CASES],
})
export class PaymentsModule {}
