import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  EVENT_TYPES,
  ListWebhookDeliveriesUseCase,
  ListWebhooksUseCase,
  RedeliverWebhookUseCase,
  RotateWebhookSecretUseCase,
} from '@ledger/outbox';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { deliveryPage, deliveryView, webhookPage, webhookWithSecretView } from '../openapi/views/outbox.views';
import { emptyBodySchema, pageQuerySchema } from './query.schemas';

const createWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  /** Empty or absent: every event type. */
  events: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).default([]),
});

const deliveriesQuerySchema = pageQuerySchema.extend({ status: z.enum(['pending', 'delivered', 'dead']).optional() });

@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly rotateSecret: RotateWebhookSecretUseCase,
    private readonly listDeliveries: ListWebhookDeliveriesUseCase,
    private readonly redeliver: RedeliverWebhookUseCase,
  ) {}

  /** The signing secret is in this answer only; a replay of the request shows it redacted. */
  @Post()
  @Audited('webhook.create')
  @Endpoint({
    operationId: 'createWebhook',
    summary: 'Create a webhook',
    description:
      'Events are POSTed to `url`, signed `Ledger-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the ' +
      'secret in this answer (shown once), at least once, with `Ledger-Event-Id` as the dedupe key. A tenant ' +
      'has at most `LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX` webhooks (25 by default).',
    access: ['admin'],
    idempotency: 'required',
    redact: ['secret'],
    body: createWebhookSchema,
    bodyExample: { url: 'https://example.com/ledger-events', events: ['transaction.posted'] },
    answer: { status: 201, description: 'The webhook and its secret.', schema: webhookWithSecretView },
    errors: ['WEBHOOK_LIMIT_REACHED'],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createWebhookSchema)) body: z.output<typeof createWebhookSchema>,
  ) {
    return this.createWebhook.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get()
  @Endpoint({
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    access: ['admin', 'auditor'],
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of webhooks.', schema: webhookPage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listWebhooks.execute({ tenantId: principal.tenantId, ...query });
  }

  @Delete(':id')
  @Audited('webhook.delete')
  @HttpCode(204)
  @Endpoint({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Its queued deliveries go with it.',
    access: ['admin'],
    answer: { status: 204, description: 'Deleted.' },
    errors: ['NOT_FOUND'],
  })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    await this.deleteWebhook.execute({ tenantId: principal.tenantId, id });
  }

  /** A new secret; the previous one keeps signing beside it for the grace period. */
  @Post(':id/rotate-secret')
  @Audited('webhook.rotate_secret')
  @Endpoint({
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook's secret",
    description: 'A new secret (shown once); the previous one keeps signing beside it for the grace period.',
    access: ['admin'],
    idempotency: 'required',
    redact: ['secret'],
    body: emptyBodySchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The webhook and its new secret.', schema: webhookWithSecretView },
    errors: ['NOT_FOUND'],
  })
  rotate(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.rotateSecret.execute({ tenantId: principal.tenantId, id });
  }

  /** Newest first; `?status=dead` lists the dead letters. */
  @Get(':id/deliveries')
  @Endpoint({
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook's deliveries",
    description: 'Newest first; `?status=dead` lists the dead letters.',
    access: ['admin', 'auditor'],
    query: deliveriesQuerySchema,
    answer: { status: 200, description: 'A page of deliveries.', schema: deliveryPage },
    errors: ['NOT_FOUND'],
  })
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(deliveriesQuerySchema, 'query')) query: z.output<typeof deliveriesQuerySchema>,
  ) {
    return this.listDeliveries.execute({ tenantId: principal.tenantId, webhookId: id, ...query });
  }

  /** Queues a delivery again, due now, with a fresh attempt budget. */
  @Post(':id/deliveries/:deliveryId/redeliver')
  @Audited('webhook.redeliver')
  @Endpoint({
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again',
    description: 'Queues it again, due now, with a fresh attempt budget.',
    access: ['admin'],
    idempotency: 'required',
    body: emptyBodySchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The delivery, pending.', schema: deliveryView },
    errors: ['NOT_FOUND'],
  })
  redeliverOne(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.redeliver.execute({ tenantId: principal.tenantId, webhookId: id, deliveryId });
  }
}
