export { PaymentsModule } from './payments.module';
export {
  PAYMENT_ORDER_STATUSES,
  FINAL_STATUSES,
  type PaymentOrderStatus,
  submitKey,
  postingRefs,
} from './domain/payment-order';
export {
  SETTLEMENT_REPORT_FORMAT,
  type PaymentConnector,
  type ConnectorSettings,
  type Counterparty,
  type ProviderAnswer,
  type ProviderNotification,
  type ProviderPayment,
  type ProviderPaymentStatus,
  type SubmitRequest,
  type WebhookCheck,
} from './connectors/connector';
export { HttpConnector } from './connectors/http-connector';
export { PROVIDER_SIGNATURE_HEADER, WEBHOOK_BODY_BYTES_MAX } from './connectors/provider-wire';
export { registerConnectorSchema, type RegisterConnectorRequest } from './connectors/connector.schema';
export { RegisterConnectorUseCase, ListConnectorsUseCase, CONNECTORS_MAX } from './connectors/connector.use-cases';
export type { ConnectorView } from './connectors/connector.view';
export { createPaymentOrderSchema, type CreatePaymentOrderRequest } from './orders/create-payment-order.schema';
export { CreatePaymentOrderUseCase } from './orders/create-payment-order.use-case';
export {
  GetPaymentOrderUseCase,
  ListPaymentOrdersUseCase,
  CountPaymentOrdersUseCase,
} from './orders/payment-order-reads.use-cases';
export { CancelPaymentOrderUseCase } from './saga/cancel-payment-order.use-case';
export type { PaymentOrderView, PaymentOrderStepView } from './orders/payment-order.view';
export { PaymentOrderReader, type StuckPaymentOrder } from './orders/payment-order-reader';
export { AdvancePaymentOrdersUseCase } from './saga/advance-payment-orders.use-case';
export { ReceiveProviderWebhookUseCase, type ProviderWebhookOutcome } from './saga/receive-provider-webhook.use-case';
