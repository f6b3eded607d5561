import type {
  CreateWebhookUseCase,
  DeliveryView,
  EventPage,
  ListWebhookDeliveriesUseCase,
  ListWebhooksUseCase,
  WebhookView,
} from '@ledger/outbox';
import { EVENT_TYPES } from '@ledger/outbox';
import { z } from 'zod';
import { type Assert, type Same, type Widened, component, pageOf } from '../components';
import { counter, id, instant } from './fields';

const eventType = z.enum(EVENT_TYPES);

export const eventView = component(
  'Event',
  z
    .strictObject({
      id: id.meta({ description: 'The dedupe key everywhere (NATS Nats-Msg-Id, webhook Ledger-Event-Id).' }),
      type: eventType,
      tenantId: id,
      aggregateId: z.string(),
      aggregateVersion: counter,
      occurredAt: instant,
      data: z.record(z.string(), z.unknown()),
    })
    .meta({ description: 'An outbox event.' }),
);

export const eventPage = component(
  'EventPage',
  z
    .strictObject({
      data: z.array(eventView),
      nextCursor: z.string().meta({ description: 'Pass as `after`; the same cursor when nothing new has committed.' }),
    })
    .meta({ description: 'Events in commit order.' }),
);

const webhookFields = {
  id,
  url: z.string().meta({ format: 'uri', examples: ['https://example.com/ledger-events'] }),
  events: z.array(eventType).meta({ description: 'Empty: every event type.' }),
  createdAt: instant,
  previousSecretExpiresAt: instant
    .nullable()
    .meta({ description: 'After a rotation: until when the previous secret still signs.' }),
  consecutiveFailures: z
    .number()
    .int()
    .min(0)
    .meta({ description: 'Failed attempts in a row; a success resets it. At the breaker threshold it parks.' }),
  parkedUntil: instant.nullable().meta({
    description:
      'The circuit breaker: while in the future nothing is sent to this webhook; then one delivery probes it, ' +
      'and a success closes the breaker. Null when closed.',
  }),
};

export const webhookView = component('Webhook', z.strictObject(webhookFields));

export const webhookWithSecretView = component(
  'WebhookWithSecret',
  z
    .strictObject({
      ...webhookFields,
      secret: z.string().meta({
        description:
          'Signs every delivery (`Ledger-Signature`); shown in this answer only, `[shown once]` in a replay.',
      }),
    })
    .meta({ description: 'A webhook and its signing secret.' }),
);

export const deliveryView = component(
  'WebhookDelivery',
  z.strictObject({
    id,
    eventId: id,
    eventType,
    status: z.enum(['pending', 'delivered', 'dead']),
    attempts: z.number().int().min(0),
    nextAttemptAt: instant.nullable(),
    lastAttemptAt: instant.nullable(),
    lastResponseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: instant.nullable(),
    createdAt: instant,
  }),
);

export const webhookPage = pageOf('WebhookPage', webhookView, 'Webhooks, oldest first.');
export const deliveryPage = pageOf('WebhookDeliveryPage', deliveryView, 'Deliveries, newest first.');

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
// The views type event types as strings.
type WebhookOutput = Omit<Output<typeof webhookView>, 'events'> & { events: string[] };
type DeliveryOutput = Widened<Output<typeof deliveryView>, 'eventType'>;
export type OutboxViewsMatch = [
  Assert<Same<EventPage, Output<typeof eventPage>>>,
  Assert<Same<WebhookView, WebhookOutput>>,
  Assert<Same<Answer<CreateWebhookUseCase['execute']>, WebhookOutput & { secret: string }>>,
  Assert<Same<Output<typeof webhookWithSecretView>, Output<typeof webhookView> & { secret: string }>>,
  Assert<Same<DeliveryView, DeliveryOutput>>,
  Assert<Same<Answer<ListWebhooksUseCase['execute']>, { data: WebhookOutput[]; nextCursor: string | null }>>,
  Assert<Same<Answer<ListWebhookDeliveriesUseCase['execute']>, { data: DeliveryOutput[]; nextCursor: string | null }>>,
];
