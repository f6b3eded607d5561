export {
  type ConnectorSettings,
  type Counterparty,
  type PaymentConnector,
  type ProviderAnswer,
  type ProviderNotification,
  type ProviderPayment,
  type ProviderPaymentStatus,
  SETTLEMENT_REPORT_FORMAT,
  type SubmitRequest,
  type WebhookCheck,
} from './connectors/connector';
export { HttpConnector } from './connectors/http-connector';
export { PROVIDER_SIGNATURE_HEADER, WEBHOOK_BODY_BYTES_MAX } from './connectors/provider-wire';
