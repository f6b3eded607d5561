import { type DynamicModule, Module } from '@nestjs/common';
import { DeliverWebhooksUseCase } from './deliver-webhooks.use-case';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  ListWebhooksUseCase,
  RotateWebhookSecretUseCase,
} from './manage-webhooks.use-cases';
import { QueueWebhookDeliveriesUseCase } from './queue-webhook-deliveries.use-case';
import { ListWebhookDeliveriesUseCase, RedeliverWebhookUseCase } from './webhook-deliveries.use-cases';
import { WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings';
import { WebhookStatisticsUseCase } from './webhook-statistics.use-case';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';
import { WebhookRepository } from './webhook.repository';

const useCases = [
  CreateWebhookUseCase,
  ListWebhooksUseCase,
  DeleteWebhookUseCase,
  RotateWebhookSecretUseCase,
  ListWebhookDeliveriesUseCase,
  RedeliverWebhookUseCase,
  QueueWebhookDeliveriesUseCase,
  DeliverWebhooksUseCase,
  WebhookStatisticsUseCase,
];

@Module({})
export class WebhooksModule {
  static forRoot(settings: WebhookSettings): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [
        WebhookRepository,
        WebhookSubscriptionRepository,
        { provide: WEBHOOK_SETTINGS, useValue: settings },
        ...useCases,
      ],
      exports: [...useCases, WebhookRepository],
    };
  }
}
