import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { Audited, type CreatedTenant, CreateTenantUseCase, OperatorOnly } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const createTenantSchema = z.strictObject({ name: z.string().min(1).max(200) });

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly createTenant: CreateTenantUseCase) {}

  /** Operator only: a new tenant and its first admin key, shown once. */
  @Post()
  @OperatorOnly()
  @Audited('tenant.create')
  @Idempotency({ required: false })
  @ApiBody({ schema: requestSchema(createTenantSchema) })
  create(
    @Body(new ZodValidationPipe(createTenantSchema)) body: z.infer<typeof createTenantSchema>,
  ): Promise<CreatedTenant> {
    return this.createTenant.execute(body);
  }
}
