import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { EventDeliveryConfig } from '@ledger/config';
import { Database, type ReplicaStatus } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { GetOutboxBacklogUseCase, type OutboxHealth } from '@ledger/outbox';
import type { z } from 'zod';
import { EVENT_DELIVERY_CONFIG } from '../event-delivery-config';
import type { Assert, Same } from '../openapi/components';
import { Endpoint } from '../openapi/endpoint';
import { healthView } from '../openapi/views/operations.views';

/** What /health says of the outbox: whether it lags and the ages, not the counts. */
type OutboxLag = Omit<OutboxHealth, 'unpublished' | 'webhooksUnqueued'>;

export interface HealthAnswer {
  status: 'ok' | 'warn';
  database: 'up';
  outbox: OutboxLag;
  /** Only with a read replica (DATABASE_READ_URL). */
  replica?: ReplicaStatus;
  warnings: string[];
}

/** The answer is what its documented view says, checked by the compiler. */
export type HealthViewMatches = [Assert<Same<HealthAnswer, z.output<typeof healthView>>>];

function replicaWarnings(replica: ReplicaStatus | undefined): string[] {
  if (replica === undefined || replica.state === 'ok') return [];
  if (replica.state === 'down') return ['the read replica does not answer: the primary serves every read'];
  return [`the read replica is ${replica.lagSeconds} s behind: the primary serves every read until it catches up`];
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly outboxBacklog: GetOutboxBacklogUseCase,
    private readonly database: Database,
    @Inject(EVENT_DELIVERY_CONFIG) private readonly events: EventDeliveryConfig,
  ) {}

  /**
   * Liveness and readiness: 200 when the database answers, 503 UNAVAILABLE when it does not. An
   * outbox whose oldest event waiting for the relay or for the webhook queue is older than the
   * threshold (a stuck or absent worker, an unreachable broker) is a warning, not a failure: the API
   * keeps posting, and events wait in the outbox. So is a read replica that is down or lagging (it
   * is bypassed: the primary serves the reads), as the background check last saw it. Public, so it
   * says up or lagging and how old the oldest waiting event is, never how many wait: counts over every
   * tenant are in /metrics.
   */
  @Get()
  @Endpoint({
    operationId: 'getHealth',
    summary: 'Liveness and readiness',
    description:
      '200 when the database answers (`warn` when the outbox lags or a read replica is bypassed), 503 `UNAVAILABLE` ' +
      'when it does not.',
    access: 'public',
    reads: 'primary',
    answer: { status: 200, description: 'The database answers.', schema: healthView },
  })
  async health(): Promise<HealthAnswer> {
    let outbox: OutboxLag;
    try {
      const {
        unpublished: _count,
        webhooksUnqueued: _unqueued,
        ...lag
      } = await this.outboxBacklog.execute({
        lagWarnSeconds: this.events.outboxLagWarnSeconds,
      });
      outbox = lag;
    } catch {
      throw new DomainError('UNAVAILABLE', 'the database does not answer');
    }
    const threshold = this.events.outboxLagWarnSeconds;
    const replica = this.database.replica?.status;
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
      ...replicaWarnings(replica),
    ];
    const status = warnings.length ? 'warn' : 'ok';
    return { status, database: 'up', outbox, ...(replica === undefined ? {} : { replica }), warnings };
  }
}
