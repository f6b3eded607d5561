import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { type EventPage, ListEventsUseCase } from '@ledger/outbox';
import type { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { eventsQuerySchema } from './query.schemas';

@ApiTags('events')
@ApiBearerAuth()
@Controller('v1/events')
export class EventsController {
  constructor(private readonly listEvents: ListEventsUseCase) {}

  /** The outbox as a pull feed, in a stable order that a late commit can never jump behind. */
  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(eventsQuerySchema, 'query')) query: z.output<typeof eventsQuerySchema>,
  ): Promise<EventPage> {
    return this.listEvents.execute({ tenantId: principal.tenantId, ...query });
  }
}
