import { Module } from '@nestjs/common';
import { EventFeedRepository } from './event-feed.repository';
import { ListEventsUseCase } from './list-events.use-case';
import { OutboxWriter } from './outbox.writer';
import { GetOutboxBacklogUseCase } from './relay/outbox-backlog.use-case';
import { RelayRepository } from './relay/relay.repository';

@Module({
  providers: [OutboxWriter, EventFeedRepository, ListEventsUseCase, RelayRepository, GetOutboxBacklogUseCase],
  exports: [OutboxWriter, ListEventsUseCase, RelayRepository, GetOutboxBacklogUseCase],
})
export class OutboxModule {}
