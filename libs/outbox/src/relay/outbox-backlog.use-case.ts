import { Injectable } from '@nestjs/common';
import { RelayRepository } from './relay.repository';

export interface OutboxHealth {
  unpublished: string;
  oldestUnpublishedAgeSeconds: number;
  /** 'lagging' when the oldest unpublished event is older than the threshold: a stuck or absent relay. */
  status: 'ok' | 'lagging';
}

@Injectable()
export class GetOutboxBacklogUseCase {
  constructor(private readonly outbox: RelayRepository) {}

  async execute(command: { lagWarnSeconds: number; now?: Date }): Promise<OutboxHealth> {
    const backlog = await this.outbox.backlog();
    const now = command.now ?? new Date();
    const age = backlog.oldest === undefined ? 0 : Math.max(0, (now.getTime() - backlog.oldest.getTime()) / 1000);
    return { unpublished: backlog.unpublished.toString(), oldestUnpublishedAgeSeconds: Math.round(age), status: age > command.lagWarnSeconds ? 'lagging' : 'ok' };
  }
}
