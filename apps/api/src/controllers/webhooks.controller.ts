import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
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
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { emptyBodySchema, pageQuerySchema } from './query.schemas';

const createWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  /** Empty or absent: every event type. */
  events: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).default([]),
});

const deliveriesQuerySchema = pageQuerySchema.extend({ status: z.enum(['pending', 'delivered', 'dead']).optional() });

@ApiTags('webhooks')
@ApiBearerAuth()
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
  @Roles('admin')
  @Idempotency({ required: true, redact: ['secret'] })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(createWebhookSchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createWebhookSchema)) body: z.output<typeof createWebhookSchema>,
  ) {
    return this.createWebhook.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get()
  @Roles('admin', 'auditor')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listWebhooks.execute({ tenantId: principal.tenantId, ...query });
  }

  @Delete(':id')
  @HttpCode(204)
  @Roles('admin')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    await this.deleteWebhook.execute({ tenantId: principal.tenantId, id });
  }

  /** A new secret; the previous one keeps signing beside it for the grace period. */
  @Post(':id/rotate-secret')
  @Roles('admin')
  @Idempotency({ required: true, redact: ['secret'] })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  rotate(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.rotateSecret.execute({ tenantId: principal.tenantId, id });
  }

  /** Newest first; `?status=dead` lists the dead letters. */
  @Get(':id/deliveries')
  @Roles('admin', 'auditor')
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(deliveriesQuerySchema, 'query')) query: z.output<typeof deliveriesQuerySchema>,
  ) {
    return this.listDeliveries.execute({ tenantId: principal.tenantId, webhookId: id, ...query });
  }

  /** Queues a delivery again, due now, with a fresh attempt budget. */
  @Post(':id/deliveries/:deliveryId/redeliver')
  @Roles('admin')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  redeliverOne(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.redeliver.execute({ tenantId: principal.tenantId, webhookId: id, deliveryId });
  }
}
