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
   * outbox whose oldest unpublished event is older than the threshold (a stuck or absent relay) is a
   * warning, not a failure: the API keeps posting, and events wait in the outbox.
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
    const warnings =
      outbox.status === 'lagging'
        ? [`the oldest unpublished event is ${outbox.oldestUnpublishedAgeSeconds} s old (threshold ${this.events.outboxLagWarnSeconds} s): is the relay running?`]
        : [];
    return { status: warnings.length ? 'warn' : 'ok', database: 'up', outbox, warnings };
  }
}
