import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { type EventPage, ListEventsUseCase } from '@ledger/outbox';
import type { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { eventPage } from '../openapi/views/outbox.views';
import { eventsQuerySchema } from './query.schemas';

@ApiTags('events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly listEvents: ListEventsUseCase) {}

  /** The outbox as a pull feed, in a stable order that a late commit can never jump behind. */
  @Get()
  @Endpoint({
    operationId: 'listEvents',
    summary: 'Read the event feed',
    description:
      'The outbox in commit order, which a late commit can never jump behind: pass `nextCursor` as `after` to ' +
      'continue (the same cursor comes back while nothing new has committed). Delivery is at least once.',
    access: 'any-key',
    query: eventsQuerySchema,
    reads: 'primary',
    answer: { status: 200, description: 'The next events.', schema: eventPage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(eventsQuerySchema, 'query')) query: z.output<typeof eventsQuerySchema>,
  ): Promise<EventPage> {
    return this.listEvents.execute({ tenantId: principal.tenantId, ...query });
  }
}
