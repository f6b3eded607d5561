import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { DomainError } from '@ledger/errors';
import { instantSchema, positiveAmountSchema } from '@ledger/ledger';
import {
  CountDiscrepanciesUseCase,
  DISCREPANCY_KINDS,
  GetDiscrepancyUseCase,
  GetRunUseCase,
  ListDiscrepanciesUseCase,
  ListRunsUseCase,
  StartReconciliationUseCase,
  UpdateDiscrepancyUseCase,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import {
  runPage,
  runView,
  ticketCountsView,
  ticketPage,
  ticketWithHistoryView,
} from '../openapi/views/reconciliation.views';
import { pageQuerySchema } from './query.schemas';

const emptySchema = z.strictObject({}).default({});

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

const updateDiscrepancySchema = z.strictObject({
  owner: z.string().min(1).max(200).optional(),
  status: z.enum(['acknowledged', 'resolved', 'ignored']).optional(),
  note: z.string().min(1).max(4000).optional(),
});

/** `If-Match: 7` or `"7"` (an entity tag): the ticket version a change is made to. */
function ticketVersionOf(ifMatch: string): number {
  const match = /^(?:W\/)?"?([1-9][0-9]{0,9})"?$/.exec(ifMatch.trim());
  const version = match === null ? Number.NaN : Number(match[1]);
  if (!Number.isSafeInteger(version) || version > 2_147_483_647) {
    throw new DomainError('VALIDATION_FAILED', 'If-Match must be a ticket version (a positive integer)', {
      fields: [{ path: 'If-Match', message: 'not a ticket version' }],
    });
  }
  return version;
}

const READERS = ['finance', 'auditor', 'admin'] as const;

@ApiTags('reconciliation')
@Controller('v1')
export class ReconciliationController {
  constructor(
    private readonly startReconciliation: StartReconciliationUseCase,
    private readonly getRun: GetRunUseCase,
    private readonly listRuns: ListRunsUseCase,
    private readonly listDiscrepancies: ListDiscrepanciesUseCase,
    private readonly getDiscrepancy: GetDiscrepancyUseCase,
    private readonly countDiscrepancies: CountDiscrepanciesUseCase,
    private readonly updateDiscrepancy: UpdateDiscrepancyUseCase,
  ) {}

  /** Queues a run for the worker and answers it at once; GET the run to follow it. */
  @Post('reconciliation/runs')
  @HttpCode(202)
  @Endpoint({
    operationId: 'runReconciliation',
    summary: 'Start a reconciliation run',
    description:
      "Queues a run that checks the ledger's invariants and matches every source's statement lines, opening, " +
      'updating and resolving tickets. Answered at once with the run `queued`; a worker carries it out ' +
      '(`running`, then `completed` or `failed`), and `GET /v1/reconciliation/runs/{id}` shows its status and ' +
      'progress. One run at a time per tenant: a start while one is queued or running is refused with its ' +
      'id, and that refusal is not stored under the Idempotency-Key.',
    access: ['finance'],
    idempotency: 'required',
    body: emptySchema,
    bodyOptional: true,
    answer: { status: 202, description: 'The run, queued.', schema: runView },
    errors: ['RECONCILIATION_IN_PROGRESS'],
  })
  run(@CurrentPrincipal() principal: Principal, @Body(new ZodValidationPipe(emptySchema)) _body: object) {
    return this.startReconciliation.execute({ tenantId: principal.tenantId, actor: principal.actor });
  }

  @Get('reconciliation/runs')
  @Endpoint({
    operationId: 'listReconciliationRuns',
    summary: 'List reconciliation runs',
    access: READERS,
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of runs, newest first.', schema: runPage },
  })
  runs(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listRuns.execute({ tenantId: principal.tenantId, ...query });
  }

  @Get('reconciliation/runs/:id')
  @Endpoint({
    operationId: 'getReconciliationRun',
    summary: 'Get a reconciliation run',
    access: READERS,
    answer: { status: 200, description: 'The run: its status, and its progress while it goes.', schema: runView },
    errors: ['NOT_FOUND'],
  })
  runById(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getRun.execute({ tenantId: principal.tenantId, id });
  }

  @Get('discrepancies')
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
  @Get('discrepancies/counts')
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

  @Get('discrepancies/:id')
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
  @Patch('discrepancies/:id')
  @Endpoint({
    operationId: 'updateDiscrepancy',
    summary: 'Assign, acknowledge, resolve or ignore a ticket',
    description:
      'Resolving and ignoring need a note; every change lands in the history. With `If-Match: <version>` ' +
      '(the `version` of the ticket as read) the change is made only to that version: a ticket changed ' +
      'since, by a person or a run, answers 412 `STALE_VERSION` and is left as it is.',
    access: ['finance'],
    body: updateDiscrepancySchema,
    bodyExample: { status: 'resolved', note: 'the bank corrected the fee on the next statement' },
    answer: { status: 200, description: 'The ticket after the change.', schema: ticketWithHistoryView },
    errors: ['NOT_FOUND', 'STALE_VERSION'],
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: "The ticket's `version` as read (a bare integer, or quoted as an entity tag).",
    schema: { type: 'string', pattern: '^(W/)?"?[1-9][0-9]{0,9}"?$' },
  })
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
      expectedVersion: ifMatch === undefined ? undefined : ticketVersionOf(ifMatch),
      ...body,
    });
  }
}
