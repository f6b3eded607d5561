import type {
  ApiKeyView,
  CreateApiKeyUseCase,
  CreatedTenant,
  ListApiKeysUseCase,
  ListAuditLogUseCase,
  Principal,
  Role,
} from '@ledger/auth';
import { ROLES } from '@ledger/auth';
import { z } from 'zod';
import { type Assert, type Same, component, pageOf } from '../components';
import { actor, id, instant } from './fields';

const role = z.enum(ROLES);
const apiKey = z.string().meta({
  description: 'The API key, shown in this answer only (`[shown once]` in a replay): send it as `Bearer <key>`.',
  examples: ['ldg_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg'],
});

export const createdTenantView = component(
  'CreatedTenant',
  z.strictObject({ tenant: z.strictObject({ id, name: z.string() }), apiKey }).meta({
    description: 'A new tenant and its first admin key.',
  }),
);

export const createdApiKeyView = component(
  'CreatedApiKey',
  z.strictObject({
    id,
    name: z.string(),
    key: apiKey,
    roles: z.array(role),
    expiresAt: instant.nullable().meta({ description: 'When the key stops working; null: never.' }),
  }),
);

export const apiKeyView = component(
  'ApiKey',
  z
    .strictObject({
      id,
      name: z.string(),
      roles: z.array(role),
      createdAt: instant,
      expiresAt: instant.nullable().meta({ description: 'When the key stops working; null: never.' }),
      revokedAt: instant.nullable().meta({ description: 'When the key was revoked; null: it is not.' }),
    })
    .meta({ description: 'A key of the tenant, without its secret.' }),
);

export const apiKeyPage = pageOf('ApiKeyPage', apiKeyView, 'API keys, newest first.');

export const currentKeyView = component(
  'CurrentApiKey',
  z
    .strictObject({
      id,
      tenantId: id,
      roles: z.array(role),
      actor,
      expiresAt: instant.nullable().meta({ description: 'When the key stops working; null: never.' }),
    })
    .meta({ description: 'The calling key.' }),
);

export const auditEntryView = component(
  'AuditEntry',
  z.strictObject({
    id,
    at: instant,
    actor,
    action: z.string().meta({ examples: ['account.create'] }),
    targetId: z.string().nullable().meta({ description: 'The id the change made, if any.' }),
    request: z.unknown().meta({ description: 'The request body as sent.' }),
  }),
);

export const auditEntryPage = pageOf('AuditEntryPage', auditEntryView, 'Audit entries, newest first.');

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
export type AccessViewsMatch = [
  Assert<Same<CreatedTenant, Output<typeof createdTenantView>>>,
  Assert<Same<Answer<CreateApiKeyUseCase['execute']>, Output<typeof createdApiKeyView>>>,
  // The controller answers the principal's fields (its roles are readonly there).
  Assert<
    Same<
      Omit<Principal, 'keyId' | 'expiresAt'> & { id: string; expiresAt: string | null },
      Omit<Output<typeof currentKeyView>, 'roles'> & { roles: readonly Role[] }
    >
  >,
  Assert<Same<Answer<ListAuditLogUseCase['execute']>, Output<typeof auditEntryPage>>>,
  Assert<Same<ApiKeyView, Output<typeof apiKeyView>>>,
  Assert<Same<Answer<ListApiKeysUseCase['execute']>, Output<typeof apiKeyPage>>>,
];
