import { type DynamicModule, Module } from '@nestjs/common';
import type { EventDeliveryConfig } from '@ledger/config';
import { Database } from '@ledger/db';
import { OutboxModule } from './outbox.module';
import { type EventPublisher, NoEventPublisher } from './publishers/event-publisher';
import { NatsEventPublisher } from './publishers/nats-publisher';
import { PurgePublishedEventsUseCase } from './relay/purge-published-events.use-case';
import { RelayOutboxUseCase } from './relay/relay-outbox.use-case';
import { RelayRepository } from './relay/relay.repository';
import { WebhookRepository } from './webhooks/webhook.repository';
import { WebhooksModule } from './webhooks/webhooks.module';

export const EVENT_PUBLISHER = Symbol('EVENT_PUBLISHER');

/** JetStream remembers a Nats-Msg-Id this long: a relay restarted within it never duplicates. */
export const NATS_DUPLICATE_WINDOW_MS = 30 * 60_000;
export const NATS_PUBLISH_TIMEOUT_MS = 5_000;

function publisherFor(config: EventDeliveryConfig): EventPublisher {
  if (config.nats === undefined) return new NoEventPublisher();
  return new NatsEventPublisher({
    ...config.nats,
    duplicateWindowMs: NATS_DUPLICATE_WINDOW_MS,
    publishTimeoutMs: NATS_PUBLISH_TIMEOUT_MS,
  });
}

/** What the worker runs to get events out: the relay, webhook delivery, the outbox's cleanup. */
@Module({})
export class EventDeliveryModule {
  static forRoot(config: EventDeliveryConfig): DynamicModule {
    return {
      module: EventDeliveryModule,
      imports: [OutboxModule, WebhooksModule.forRoot(config.webhooks)],
      providers: [
        { provide: EVENT_PUBLISHER, useFactory: () => publisherFor(config) },
        {
          provide: RelayOutboxUseCase,
          inject: [Database, RelayRepository, EVENT_PUBLISHER],
          useFactory: (db: Database, outbox: RelayRepository, publisher: EventPublisher) =>
            new RelayOutboxUseCase(db, outbox, publisher),
        },
        {
          provide: PurgePublishedEventsUseCase,
          inject: [RelayRepository, WebhookRepository],
          useFactory: (outbox: RelayRepository, webhooks: WebhookRepository) =>
            new PurgePublishedEventsUseCase(outbox, webhooks, config.outboxRetentionHours),
        },
      ],
      exports: [EVENT_PUBLISHER, RelayOutboxUseCase, PurgePublishedEventsUseCase, WebhooksModule],
    };
  }
}
