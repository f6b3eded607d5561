import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@ledger/auth';
import type { EventDeliveryConfig } from '@ledger/config';
import { DomainError } from '@ledger/errors';
import { GetOutboxBacklogUseCase, type OutboxHealth } from '@ledger/outbox';
import { EVENT_DELIVERY_CONFIG } from '../event-delivery-config';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly outboxBacklog: GetOutboxBacklogUseCase,
    @Inject(EVENT_DELIVERY_CONFIG) private readonly events: EventDeliveryConfig,
  ) {}

  /**
   * Liveness and readiness: 200 when the database answers, 503 UNAVAILABLE when it does not. An
   * outbox whose oldest event waiting for the relay or for the webhook queue is older than the
   * threshold (a stuck or absent worker, an unreachable broker) is a warning, not a failure: the API
   * keeps posting, and events wait in the outbox.
   */
  @Get()
  @Public()
  async health(): Promise<{ status: 'ok' | 'warn'; database: 'up'; outbox: OutboxHealth; warnings: string[] }> {
    let outbox: OutboxHealth;
    try {
      outbox = await this.outboxBacklog.execute({ lagWarnSeconds: this.events.outboxLagWarnSeconds });
    } catch {
      throw new DomainError('UNAVAILABLE', 'the database does not answer');
    }
    const threshold = this.events.outboxLagWarnSeconds;
    const warnings = [
      ...(outbox.lagging.includes('relay')
        ? [
            `the oldest unpublished event is ${outbox.oldestUnpublishedAgeSeconds} s old ` +
              `(threshold ${threshold} s): is the relay running?`,
          ]
        : []),
      ...(outbox.lagging.includes('webhookQueue')
        ? [
            `the oldest event without its webhook deliveries is ${outbox.oldestUnqueuedAgeSeconds} s old ` +
              `(threshold ${threshold} s): is the worker's webhook queue running?`,
          ]
        : []),
    ];
    return { status: warnings.length ? 'warn' : 'ok', database: 'up', outbox, warnings };
  }
}
