import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { GetRunUseCase, ListRunsUseCase, RunReconciliationUseCase } from '@ledger/reconciliation';
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
    private readonly runReconciliation: RunReconciliationUseCase,
    private readonly getRun: GetRunUseCase,
    private readonly listRuns: ListRunsUseCase,
  ) {}

  /** Runs every check now and brings the tickets up to date; answers the run with its stats. */
  @Post('reconciliation/runs')
  @Endpoint({
    operationId: 'runReconciliation',
    summary: 'Run a reconciliation now',
    description:
      "Checks the ledger's invariants and matches every source's statement lines, opening, updating and " +
      'resolving tickets; one run at a time per tenant.',
    access: ['finance'],
    idempotency: 'required',
    body: emptySchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The finished run with its stats.', schema: runView },
    errors: ['RECONCILIATION_IN_PROGRESS'],
  })
  run(@CurrentPrincipal() principal: Principal, @Body(new ZodValidationPipe(emptySchema)) _body: object) {
    return this.runReconciliation.execute({ tenantId: principal.tenantId, trigger: 'api', actor: principal.actor });
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
    answer: { status: 200, description: 'The run.', schema: runView },
    errors: ['NOT_FOUND'],
  })
  runById(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getRun.execute({ tenantId: principal.tenantId, id });
  }
}
