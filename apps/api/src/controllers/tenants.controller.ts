import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, type CreatedTenant, CreateTenantUseCase } from '@ledger/auth';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { createdTenantView } from '../openapi/views/access.views';

const createTenantSchema = z.strictObject({ name: z.string().min(1).max(200) });

@ApiTags('tenants')
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly createTenant: CreateTenantUseCase) {}

  /** Operator only: a new tenant and its first admin key, shown once. */
  @Post()
  @Audited('tenant.create')
  @Endpoint({
    operationId: 'createTenant',
    summary: 'Create a tenant',
    description: 'Operator only: a new tenant and its first admin key, shown once. No Idempotency-Key.',
    access: 'operator',
    idempotency: 'none',
    body: createTenantSchema,
    bodyExample: { name: 'Acme' },
    answer: { status: 201, description: 'The tenant and its admin key.', schema: createdTenantView },
  })
  create(
    @Body(new ZodValidationPipe(createTenantSchema)) body: z.infer<typeof createTenantSchema>,
  ): Promise<CreatedTenant> {
    return this.createTenant.execute(body);
  }
}
