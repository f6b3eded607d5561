import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { GetStatementLineUseCase } from '@ledger/imports';
import { Endpoint } from '../openapi/endpoint';
import { statementLineWithImportView } from '../openapi/views/imports.views';

@ApiTags('imports')
@Controller('v1/statement-lines')
export class StatementLinesController {
  constructor(private readonly getLine: GetStatementLineUseCase) {}

  /** One statement line and the import it came from (tickets and matches name lines by id). */
  @Get(':id')
  @Endpoint({
    operationId: 'getStatementLine',
    summary: 'Get a statement line',
    description: 'One line and the import it came from (tickets and matches name lines by id).',
    access: ['finance', 'auditor', 'admin'],
    answer: { status: 200, description: 'The line.', schema: statementLineWithImportView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getLine.execute({ tenantId: principal.tenantId, id });
  }
}
