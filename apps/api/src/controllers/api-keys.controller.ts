import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Audited,
  CreateApiKeyUseCase,
  CurrentPrincipal,
  ListApiKeysUseCase,
  type Principal,
  ROLES,
  RevokeApiKeyUseCase,
} from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { z } from 'zod';
import { UuidParamPipe } from '../http/uuid-param.pipe';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { apiKeyPage, apiKeyView, createdApiKeyView, currentKeyView } from '../openapi/views/access.views';
import { pageQuerySchema } from './query.schemas';

const createApiKeySchema = z.strictObject({
  name: z.string().min(1).max(200),
  roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length),
  /** When the key stops working; absent, never. */
  expiresAt: instantSchema.optional(),
});

@ApiTags('api-keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly listApiKeys: ListApiKeysUseCase,
    private readonly revokeApiKey: RevokeApiKeyUseCase,
  ) {}

  @Get()
  @Endpoint({
    operationId: 'listApiKeys',
    summary: "List the tenant's API keys",
    description: 'Revoked and expired keys included, newest first; never a secret or its hash.',
    access: ['admin'],
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of keys, newest first.', schema: apiKeyPage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listApiKeys.execute({ tenantId: principal.tenantId, ...query });
  }

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

  /** Revoking a revoked key answers the same; the tenant's last live admin key stays (409 LAST_ADMIN_KEY). */
  @Delete(':id')
  @Audited('api_key.revoke')
  @Endpoint({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'From then on the key answers 401: at once in the process that revoked it, in the others within ' +
      '`LEDGER_KEY_CACHE_SECONDS` (10 s by default). Revoking a revoked key answers the same. The ' +
      "tenant's last live admin key cannot be revoked, so that a tenant never locks itself out.",
    access: ['admin'],
    answer: { status: 200, description: 'The key, revoked.', schema: apiKeyView },
    errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'LAST_ADMIN_KEY'],
  })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string) {
    return this.revokeApiKey.execute({ tenantId: principal.tenantId, id });
  }
}
