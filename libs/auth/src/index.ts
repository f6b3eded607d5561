export { AuthModule } from './auth.module';
export { Public, OperatorOnly, Roles, CurrentPrincipal, type Access } from './auth.decorators';
export { ROLES, type Role, type Principal } from './roles';
export { CreateTenantUseCase, type CreatedTenant } from './create-tenant.use-case';
export { CreateApiKeyUseCase } from './create-api-key.use-case';
export { issueApiKey, parseApiKey } from './api-key-secret';
export { RateLimiter, type RateLimit } from './rate-limiter';
export { Audited } from './audit/audited.decorator';
export { ListAuditLogUseCase, type AuditEntryView } from './audit/list-audit-log.use-case';
