import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Database } from '@ledger/db';
import { canonicalJson, newId } from '@ledger/ids';
import { type Observable, from, lastValueFrom } from 'rxjs';
import type { AuthenticatedRequest } from '../auth.decorators';
import { AuditLogRepository } from './audit-log.repository';
import { AUDIT_METADATA } from './audited.decorator';

/** Request bodies kept in the audit log up to this size; a larger one is kept as its size only. */
export const AUDITED_BODY_CHARS_MAX = 16_384;

interface AuditedRequest extends AuthenticatedRequest {
  body: unknown;
  params: Record<string, string>;
}

/**
 * Runs an audited handler and records who did what in the same database transaction (the
 * idempotency interceptor's, or one of its own), so that a change and its record commit together.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly db: Database,
    private readonly auditLog: AuditLogRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<string>(AUDIT_METADATA, context.getHandler());
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    return from(
      this.db.transaction('read committed', async () => {
        const result = (await lastValueFrom(next.handle())) as { id?: unknown; tenant?: { id?: unknown } } | undefined;
        const tenantId = request.principal?.tenantId ?? String(result?.tenant?.id);
        const actor = request.principal ? `api-key:${request.principal.keyId}` : 'operator';
        const targetId =
          typeof result?.id === 'string'
            ? result.id
            : typeof result?.tenant?.id === 'string'
              ? result.tenant.id
              : (request.params.id ?? null);
        const body = canonicalJson(request.body ?? {});
        const kept =
          body.length <= AUDITED_BODY_CHARS_MAX ? body : JSON.stringify({ truncated: true, chars: body.length });
        await this.auditLog.insert({ tenantId, id: newId(), actor, action, targetId, requestJson: kept });
        return result;
      }),
    );
  }
}
