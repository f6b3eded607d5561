import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CreateApiKeyUseCase, CurrentPrincipal, type Principal, ROLES } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { createdApiKeyView, currentKeyView } from '../openapi/views/access.views';

const createApiKeySchema = z.strictObject({
  name: z.string().min(1).max(200),
  roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length),
  /** When the key stops working; absent, never. */
  expiresAt: instantSchema.optional(),
});

@ApiTags('api-keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly createApiKey: CreateApiKeyUseCase) {}

  /** Who this key is: its id, tenant and roles (the console shows only what the roles allow). */
  @Get('current')
  @Endpoint({
    operationId: 'getCurrentApiKey',
    summary: 'The calling API key',
    description: 'Its id, tenant and roles: a client shows only what the roles allow.',
    access: 'any-key',
    answer: { status: 200, description: 'The calling key.', schema: currentKeyView },
  })
  current(@CurrentPrincipal() principal: Principal) {
    return {
      id: principal.keyId,
      tenantId: principal.tenantId,
      roles: principal.roles,
      actor: principal.actor,
      expiresAt: principal.expiresAt?.toISOString() ?? null,
    };
  }

  /** The key is in this answer only; a replay of the request shows it redacted. */
  @Post()
  @Audited('api_key.create')
  @Endpoint({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'The key is in this answer only; a replay of the request shows it redacted.',
    access: ['admin'],
    idempotency: 'required',
    redact: ['key'],
    body: createApiKeySchema,
    bodyExample: { name: 'checkout-service', roles: ['poster'], expiresAt: '2027-06-30T00:00:00Z' },
    answer: { status: 201, description: 'The new key.', schema: createdApiKeyView },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createApiKeySchema)) body: z.infer<typeof createApiKeySchema>,
  ) {
    return this.createApiKey.execute({ tenantId: principal.tenantId, ...body });
  }
}
