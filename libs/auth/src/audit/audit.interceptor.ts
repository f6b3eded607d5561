import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Observable, from, lastValueFrom } from 'rxjs';
import type { AuthenticatedRequest } from '../auth.decorators';
import { type AuditAction, AuditTrail } from './audit-trail';

interface AuditedRequest extends AuthenticatedRequest {
  body: unknown;
  params: Record<string, string>;
}

/**
 * Runs an audited handler and records who did what in the same database transaction (the
 * idempotency interceptor's, or one of its own), so that a change and its record commit together.
 */
/** Where `@Audited` leaves the action's name on a handler, for the interceptor to read. */
export const AUDIT_METADATA = 'ledger:audit';

@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<AuditAction>(AUDIT_METADATA, context.getHandler());
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    const change = {
      actor: request.principal?.actor ?? 'operator',
      action,
      tenantId: request.principal?.tenantId,
      targetId: request.params.id ?? null,
      request: request.body,
    };
    return from(this.trail.record(change, () => lastValueFrom(next.handle())));
  }
}
