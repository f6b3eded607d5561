import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { GetStatementLineUseCase } from '@ledger/imports';
import { ListStatementLinesUseCase } from '@ledger/reconciliation';
import type { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { listedStatementLinePage, statementLineWithImportView } from '../openapi/views/imports.views';
import { statementLinesQuerySchema } from './query.schemas';

const READERS = ['finance', 'auditor', 'admin'] as const;

@ApiTags('imports')
@Controller('v1/statement-lines')
export class StatementLinesController {
  constructor(
    private readonly getLine: GetStatementLineUseCase,
    private readonly listLines: ListStatementLinesUseCase,
  ) {}

  @Get()
  @Endpoint({
    operationId: 'listStatementLines',
    summary: 'List statement lines',
    description:
      "A source's lines from all its imports, the latest booking day first; `status=unmatched` keeps the lines " +
      'no match holds (what the reconciler could not explain, or has not seen yet), `status=matched` the others.',
    access: READERS,
    query: statementLinesQuerySchema,
    answer: { status: 200, description: 'A page of lines.', schema: listedStatementLinePage },
    errors: ['NOT_FOUND'],
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(statementLinesQuerySchema, 'query')) query: z.output<typeof statementLinesQuerySchema>,
  ) {
    return this.listLines.execute({ tenantId: principal.tenantId, ...query });
  }

  /** One statement line and the import it came from (tickets and matches name lines by id). */
  @Get(':id')
  @Endpoint({
    operationId: 'getStatementLine',
    summary: 'Get a statement line',
    description: 'One line and the import it came from (tickets and matches name lines by id).',
    access: READERS,
    answer: { status: 200, description: 'The line.', schema: statementLineWithImportView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getLine.execute({ tenantId: principal.tenantId, id });
  }
}
