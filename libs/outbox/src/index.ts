export { EVENT_TYPES, type EventType, type LedgerEvent, type NewEvent } from './outbox-event';
export { OutboxRepository, outboxInsertParams } from './outbox.repository';
export { OUTBOX_INSERT_SQL, type OutboxInsertParams } from './outbox.sql';
export { ListEventsUseCase, EVENT_PAGE_SIZE_MAX, type EventPage, type ListEventsCommand } from './list-events.use-case';
export { OutboxModule } from './outbox.module';
export { backoffDelayMs } from './backoff';
export { PollingLoop, type PollingLoopOptions } from './polling-loop';
export { SlotPool } from './slot-pool';
export { type EventPublisher, NoEventPublisher } from './publishers/event-publisher';
export { NatsEventPublisher, eventSubject, natsServers, type NatsPublisherOptions } from './publishers/nats-publisher';
export { RelayRepository, type OutboxBacklog } from './relay/relay.repository';
export {
  RelayOutboxUseCase,
  RELAY_BATCH_SIZE_MAX,
  type RelayFaults,
  type RelayResult,
} from './relay/relay-outbox.use-case';
export { PurgePublishedEventsUseCase } from './relay/purge-published-events.use-case';
export { GetOutboxBacklogUseCase, type OutboxHealth } from './relay/outbox-backlog.use-case';
export { EventDeliveryModule, EVENT_PUBLISHER } from './event-delivery.module';
export { WebhooksModule } from './webhooks/webhooks.module';
export {
  CreateWebhookUseCase,
  ListWebhooksUseCase,
  DeleteWebhookUseCase,
  RotateWebhookSecretUseCase,
} from './webhooks/manage-webhooks.use-cases';
export { ListWebhookDeliveriesUseCase, RedeliverWebhookUseCase } from './webhooks/webhook-deliveries.use-cases';
export {
  QueueWebhookDeliveriesUseCase,
  WEBHOOK_QUEUE_BATCH_SIZE_MAX,
} from './webhooks/queue-webhook-deliveries.use-case';
export { DeliverWebhooksUseCase } from './webhooks/deliver-webhooks.use-case';
export {
  SIGNATURE_HEADER,
  EVENT_ID_HEADER,
  signatureHeader,
  verifySignature,
  newSigningSecret,
} from './webhooks/webhook-signature';
export type { WebhookView, DeliveryView } from './webhooks/webhook.views';
export type { DeliveryStatus } from './webhooks/webhooks.sql';
export { WebhookStatisticsUseCase, type WebhookStatistics } from './webhooks/webhook-statistics.use-case';
export { WebhookRepository } from './webhooks/webhook.repository';
