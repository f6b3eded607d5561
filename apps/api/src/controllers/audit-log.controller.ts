import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, ListAuditLogUseCase, type Principal, Roles } from '@ledger/auth';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { pageQuerySchema } from './query.schemas';

const auditLogQuerySchema = pageQuerySchema.extend({
  action: z
    .string()
    .regex(/^[a-z_]+\.[a-z_]+$/, 'an action such as api_key.create')
    .optional(),
});

@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1/audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: ListAuditLogUseCase) {}

  /** Every change to the tenant's configuration (keys, accounts, sources, routes, rules): who, when, what was sent. */
  @Get()
  @Roles('admin', 'auditor')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(auditLogQuerySchema, 'query')) query: z.output<typeof auditLogQuerySchema>,
  ) {
    return this.auditLog.execute({ tenantId: principal.tenantId, ...query });
  }
}
