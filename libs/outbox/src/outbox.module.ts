import { Module } from '@nestjs/common';
import { EventFeedRepository } from './event-feed.repository';
import { ListEventsUseCase } from './list-events.use-case';
import { OutboxWriter } from './outbox.writer';

@Module({
  providers: [OutboxWriter, EventFeedRepository, ListEventsUseCase],
  exports: [OutboxWriter, ListEventsUseCase],
})
export class OutboxModule {}
