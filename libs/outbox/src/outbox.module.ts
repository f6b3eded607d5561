import { Module } from '@nestjs/common';
import { EventFeedRepository } from './event-feed.repository';
import { ListEventsUseCase } from './list-events.use-case';
import { OutboxRepository } from './outbox.repository';
import { GetOutboxBacklogUseCase } from './relay/outbox-backlog.use-case';
import { RelayRepository } from './relay/relay.repository';

@Module({
  providers: [OutboxRepository, EventFeedRepository, ListEventsUseCase, RelayRepository, GetOutboxBacklogUseCase],
  exports: [OutboxRepository, ListEventsUseCase, RelayRepository, GetOutboxBacklogUseCase],
})
export class OutboxModule {}
