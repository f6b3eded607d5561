import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, ListAuditLogUseCase, type Principal } from '@ledger/auth';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { auditEntryPage } from '../openapi/views/access.views';
import { pageQuerySchema } from './query.schemas';

const auditLogQuerySchema = pageQuerySchema.extend({
  action: z
    .string()
    .regex(/^[a-z_]+\.[a-z_]+$/, 'an action such as api_key.create')
    .optional(),
});

@ApiTags('audit')
@Controller('v1/audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: ListAuditLogUseCase) {}

  /** Every change to the tenant's configuration (keys, accounts, sources, routes, rules): who, when, what was sent. */
  @Get()
  @Endpoint({
    operationId: 'listAuditLog',
    summary: 'List the audit log',
    description:
      "Every change to the tenant's configuration (keys, accounts, sources, routes, rules): who, when, what.",
    access: ['admin', 'auditor'],
    query: auditLogQuerySchema,
    answer: { status: 200, description: 'A page of entries, newest first.', schema: auditEntryPage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(auditLogQuerySchema, 'query')) query: z.output<typeof auditLogQuerySchema>,
  ) {
    return this.auditLog.execute({ tenantId: principal.tenantId, ...query });
  }
}
