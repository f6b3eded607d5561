import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { GetStatementLineUseCase } from '@ledger/imports';

@ApiTags('imports')
@ApiBearerAuth()
@Controller('v1/statement-lines')
export class StatementLinesController {
  constructor(private readonly getLine: GetStatementLineUseCase) {}

  /** One statement line and the import it came from (tickets and matches name lines by id). */
  @Get(':id')
  @Roles('finance', 'auditor', 'admin')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getLine.execute({ tenantId: principal.tenantId, id });
  }
}
