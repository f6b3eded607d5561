import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyRepository } from './api-key.repository';
import { AuthGuard, OPERATOR_TOKEN } from './auth.guard';
import { AuthenticateUseCase } from './authenticate.use-case';
import { type AuthLimitSettings, AuthLimits } from './rate-limiter';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AuditLogRepository } from './audit/audit-log.repository';
import { AuditTrail } from './audit/audit-trail';
import { ListAuditLogUseCase } from './audit/list-audit-log.use-case';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { CreateTenantUseCase } from './create-tenant.use-case';
import { ListApiKeysUseCase } from './list-api-keys.use-case';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';
import { TenantsModule } from './tenants.module';

@Module({})
export class AuthModule {
  /** Installs the guard on every route; the operator token may only create tenants. */
  static forRoot(options: { operatorToken: string | undefined; limits?: AuthLimitSettings }): DynamicModule {
    return {
      module: AuthModule,
      imports: [TenantsModule],
      providers: [
        ApiKeyRepository,
        AuditLogRepository,
        AuditTrail,
        AuthenticateUseCase,
        CreateTenantUseCase,
        CreateApiKeyUseCase,
        ListApiKeysUseCase,
        RevokeApiKeyUseCase,
        ListAuditLogUseCase,
        AuditInterceptor,
        { provide: OPERATOR_TOKEN, useValue: options.operatorToken },
        { provide: AuthLimits, useValue: new AuthLimits(options.limits ?? {}) },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [
        CreateTenantUseCase,
        CreateApiKeyUseCase,
        ListApiKeysUseCase,
        RevokeApiKeyUseCase,
        AuthenticateUseCase,
        ListAuditLogUseCase,
        AuditInterceptor,
        // @Audited() controllers' modules build the interceptor themselves: they need what it injects.
        // The CLI records its privileged commands through the same trail.
        AuditTrail,
        TenantsModule,
      ],
    };
  }
}
