export { EVENT_TYPES, type EventType, type LedgerEvent, type NewEvent } from './outbox-event';
export { OutboxWriter, outboxInsertSql, outboxInsertParams, OUTBOX_INSERT_PARAMS } from './outbox.writer';
export { ListEventsUseCase, EVENT_PAGE_SIZE_MAX, type EventPage, type ListEventsCommand } from './list-events.use-case';
export { OutboxModule } from './outbox.module';
