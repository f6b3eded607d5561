import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { GetRunUseCase, ListRunsUseCase, StartReconciliationUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { runPage, runView } from '../openapi/views/reconciliation.views';
import { pageQuerySchema } from './query.schemas';

const emptySchema = z.strictObject({}).default({});

const READERS = ['finance', 'auditor', 'admin'] as const;

@ApiTags('reconciliation')
@Controller('v1')
export class ReconciliationController {
  constructor(
    private readonly startReconciliation: StartReconciliationUseCase,
    private readonly getRun: GetRunUseCase,
    private readonly listRuns: ListRunsUseCase,
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
}
