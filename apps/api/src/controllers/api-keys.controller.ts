import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CreateApiKeyUseCase, CurrentPrincipal, type Principal, ROLES, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const createApiKeySchema = z.strictObject({
  name: z.string().min(1).max(200),
  roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length),
});

@ApiTags('api-keys')
@ApiBearerAuth()
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly createApiKey: CreateApiKeyUseCase) {}

  /** Who this key is: its id, tenant and roles (the console shows only what the roles allow). */
  @Get('current')
  current(@CurrentPrincipal() principal: Principal) {
    return { id: principal.keyId, tenantId: principal.tenantId, roles: principal.roles };
  }

  /** The key is in this answer only; a replay of the request shows it redacted. */
  @Post()
  @Roles('admin')
  @Audited('api_key.create')
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @Idempotency({ required: true, redact: ['key'] })
  @ApiBody({ schema: requestSchema(createApiKeySchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createApiKeySchema)) body: z.infer<typeof createApiKeySchema>,
  ) {
    return this.createApiKey.execute({ tenantId: principal.tenantId, ...body });
  }
}
