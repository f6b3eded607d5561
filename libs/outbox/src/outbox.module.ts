import { Module } from '@nestjs/common';
import { EventFeedRepository } from './event-feed.repository';
import { ListEventsUseCase } from './list-events.use-case';
import { OutboxListener } from './outbox-listener';
import { OutboxSignal } from './outbox-signal';
import { OutboxRepository } from './outbox.repository';
import { GetOutboxBacklogUseCase } from './relay/outbox-backlog.use-case';
import { RelayRepository } from './relay/relay.repository';

const SHARED = [
  OutboxRepository,
  OutboxSignal,
  OutboxListener,
  ListEventsUseCase,
  RelayRepository,
  GetOutboxBacklogUseCase,
];

@Module({
  providers: [...SHARED, EventFeedRepository],
  exports: SHARED,
})
export class OutboxModule {}
