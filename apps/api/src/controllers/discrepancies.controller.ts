import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import { instantSchema, positiveAmountSchema } from '@ledger/ledger';
import {
  BulkUpdateDiscrepanciesUseCase,
  CANDIDATES_DEFAULT,
  CANDIDATES_MAX,
  CANDIDATE_WINDOW_DAYS,
  CommentOnDiscrepancyUseCase,
  CountDiscrepanciesUseCase,
  DISCREPANCY_KINDS,
  GetDiscrepancyUseCase,
  ListDiscrepanciesUseCase,
  ReopenDiscrepancyUseCase,
  SuggestCandidatesUseCase,
  UpdateDiscrepancyUseCase,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { IfMatchHeader, expectedVersionOf } from '../http/if-match';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { bulkTicketResultsView } from '../openapi/views/discrepancies.views';
import {
  candidateList,
  ticketCountsView,
  ticketPage,
  ticketWithHistoryView,
} from '../openapi/views/reconciliation.views';
import { pageQuerySchema } from './query.schemas';
import {
  type BulkTicketChange,
  bulkTicketChangeSchema,
  commentSchema,
  reopenSchema,
  updateDiscrepancySchema,
} from './discrepancies.schemas';

const discrepanciesQuerySchema = pageQuerySchema.extend({
  status: z.enum(['open', 'acknowledged', 'resolved', 'ignored']).optional(),
  owner: z.string().min(1).max(200).optional(),
  kind: z.enum(DISCREPANCY_KINDS).optional(),
  overdue: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  minAmount: positiveAmountSchema.optional(),
  /** Age filter: tickets opened before this instant. */
  openedBefore: instantSchema.optional(),
});

const candidatesQuerySchema = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CANDIDATES_MAX)
    .default(CANDIDATES_DEFAULT)
    .meta({ description: 'Suggestions at most.' }),
});

const READERS = ['finance', 'auditor', 'admin'] as const;

/** The discrepancy tickets: the queue, one ticket, and the ways a person works them. */
@ApiTags('reconciliation')
@Controller('v1/discrepancies')
export class DiscrepanciesController {
  constructor(
    private readonly listDiscrepancies: ListDiscrepanciesUseCase,
    private readonly getDiscrepancy: GetDiscrepancyUseCase,
    private readonly countDiscrepancies: CountDiscrepanciesUseCase,
    private readonly updateDiscrepancy: UpdateDiscrepancyUseCase,
    private readonly reopenDiscrepancy: ReopenDiscrepancyUseCase,
    private readonly commentOnDiscrepancy: CommentOnDiscrepancyUseCase,
    private readonly bulkUpdateDiscrepancies: BulkUpdateDiscrepanciesUseCase,
    private readonly suggestCandidates: SuggestCandidatesUseCase,
  ) {}

  @Get()
  @Endpoint({
    operationId: 'listDiscrepancies',
    summary: 'List discrepancy tickets',
    description: 'The queue, newest first, filtered by status, owner, kind, overdue, minimum amount and age.',
    access: READERS,
    query: discrepanciesQuerySchema,
    answer: { status: 200, description: 'A page of tickets.', schema: ticketPage },
  })
  discrepancies(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(discrepanciesQuerySchema, 'query')) query: z.output<typeof discrepanciesQuerySchema>,
  ) {
    return this.listDiscrepancies.execute({ tenantId: principal.tenantId, ...query, minAmountMinor: query.minAmount });
  }

  /** Tickets per status and overdue: the queue's headline, declared before `:id` so it is not read as one. */
  @Get('counts')
  @Endpoint({
    operationId: 'countDiscrepancies',
    summary: 'Count tickets per status',
    access: READERS,
    answer: {
      status: 200,
      description: 'Tickets per status, and how many being worked are overdue.',
      schema: ticketCountsView,
    },
  })
  counts(@CurrentPrincipal() principal: Principal) {
    return this.countDiscrepancies.execute({ tenantId: principal.tenantId });
  }

  /** Declared before `:id/...` routes; a path of its own, so it is never read as a ticket's id. */
  @Post('bulk')
  @Audited('discrepancy.bulk_update')
  @HttpCode(200)
  @Endpoint({
    operationId: 'bulkUpdateDiscrepancies',
    summary: 'Assign, acknowledge, resolve, ignore or note many tickets at once',
    description:
      'One change (`owner`, `status`, `note`: at least one) made to up to 500 tickets in one transaction, with ' +
      'one answer per id: `updated`, `unchanged` (already so), `refused` (a status the ticket cannot reach) or ' +
      "`not_found` (another tenant's ids too: they are never touched). Resolving and ignoring need a note. " +
      "The tickets are locked in id order, as a run's sync locks them.",
    access: ['finance'],
    idempotency: 'required',
    body: bulkTicketChangeSchema,
    bodyExample: { ids: ['0194f1a2-7c3e-7d00-8a1b-2c3d4e5f6a7b'], owner: 'payables' },
    answer: { status: 200, description: 'One answer per id, in the order sent.', schema: bulkTicketResultsView },
  })
  bulk(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(bulkTicketChangeSchema)) body: BulkTicketChange,
  ) {
    return this.bulkUpdateDiscrepancies.execute({ tenantId: principal.tenantId, actor: principal.actor, ...body });
  }

  @Get(':id')
  @Endpoint({
    operationId: 'getDiscrepancy',
    summary: 'Get a ticket and its history',
    access: READERS,
    answer: { status: 200, description: 'The ticket.', schema: ticketWithHistoryView },
    errors: ['NOT_FOUND'],
  })
  discrepancy(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getDiscrepancy.execute({ tenantId: principal.tenantId, id });
  }

  /** Assign, acknowledge, resolve or ignore (these two need a note); every change lands in the history. */
  @Get(':id/candidates')
  @Endpoint({
    operationId: 'suggestDiscrepancyCandidates',
    summary: "Suggest ledger transactions for a ticket's statement lines",
    description:
      "Unmatched posted entries on the source's account, same currency, effective within " +
      `${CANDIDATE_WINDOW_DAYS} days of the lines' booking dates and within a fifth of their total either way, or ` +
      "of a transaction whose externalRef is one of the lines' references; scored (exact amount first, then " +
      'closeness, the date, a shared reference, a word of the counterparty) and best first. Match one with ' +
      '`POST /v1/matches`. A ticket about a ledger entry (`missing_in_statement`) or about no line has none.',
    access: READERS,
    query: candidatesQuerySchema,
    answer: { status: 200, description: 'The suggestions, best first.', schema: candidateList },
    errors: ['NOT_FOUND'],
  })
  candidates(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(candidatesQuerySchema, 'query')) query: z.output<typeof candidatesQuerySchema>,
  ) {
    return this.suggestCandidates.execute({ tenantId: principal.tenantId, id, limit: query.limit });
  }

  @Patch(':id')
  @Endpoint({
    operationId: 'updateDiscrepancy',
    summary: 'Assign, acknowledge, resolve or ignore a ticket',
    description:
      'Resolving and ignoring need a note; every change lands in the history. With `If-Match: <version>` ' +
      '(the `version` of the ticket as read) the change is made only to that version: a ticket changed ' +
      'since, by a person or a run, answers 412 `STALE_VERSION` and is left as it is. A `note` alone is ' +
      'still taken (as a `noted` entry), but a PATCH has no Idempotency-Key: a retried one is stored twice; ' +
      '`POST /v1/discrepancies/{id}/comments` is the way to comment.',
    access: ['finance'],
    body: updateDiscrepancySchema,
    bodyExample: { status: 'resolved', note: 'the bank corrected the fee on the next statement' },
    answer: { status: 200, description: 'The ticket after the change.', schema: ticketWithHistoryView },
    errors: ['NOT_FOUND', 'STALE_VERSION'],
  })
  @IfMatchHeader()
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Body(new ZodValidationPipe(updateDiscrepancySchema)) body: z.output<typeof updateDiscrepancySchema>,
  ) {
    return this.updateDiscrepancy.execute({
      tenantId: principal.tenantId,
      id,
      actor: principal.actor,
      expectedVersion: expectedVersionOf(ifMatch),
      ...body,
    });
  }

  @Post(':id/reopen')
  @Audited('discrepancy.reopen')
  @HttpCode(200)
  @Endpoint({
    operationId: 'reopenDiscrepancy',
    summary: 'Reopen a resolved or ignored ticket',
    description:
      'The ticket is open again, with the same owner and a due date counted from now; the note and the actor ' +
      'land in the history. A ticket still being worked answers 409 `TICKET_NOT_CLOSED`. With ' +
      '`If-Match: <version>`, a ticket changed since answers 412 `STALE_VERSION`.',
    access: ['finance'],
    idempotency: 'required',
    body: reopenSchema,
    bodyExample: { note: 'the bank reversed its correction' },
    answer: { status: 200, description: 'The ticket, open again.', schema: ticketWithHistoryView },
    errors: ['NOT_FOUND', 'TICKET_NOT_CLOSED', 'STALE_VERSION'],
  })
  @IfMatchHeader()
  reopen(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Body(new ZodValidationPipe(reopenSchema)) body: z.output<typeof reopenSchema>,
  ) {
    return this.reopenDiscrepancy.execute({
      tenantId: principal.tenantId,
      id,
      actor: principal.actor,
      note: body.note,
      expectedVersion: expectedVersionOf(ifMatch),
    });
  }

  @Post(':id/comments')
  @Audited('discrepancy.comment')
  @Endpoint({
    operationId: 'commentOnDiscrepancy',
    summary: 'Comment on a ticket',
    description:
      'Appends the note to the history, whatever the status. The Idempotency-Key makes a retried comment ' +
      'land once.',
    access: ['finance'],
    idempotency: 'required',
    body: commentSchema,
    bodyExample: { note: 'asked the bank for the advice of this fee' },
    answer: { status: 201, description: 'The ticket with the comment in its history.', schema: ticketWithHistoryView },
    errors: ['NOT_FOUND'],
  })
  comment(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(commentSchema)) body: z.output<typeof commentSchema>,
  ) {
    return this.commentOnDiscrepancy.execute({
      tenantId: principal.tenantId,
      id,
      actor: principal.actor,
      note: body.note,
    });
  }
}
