import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { ACCESS_METADATA, type Access, type AuthenticatedRequest } from './auth.decorators';
import { AuthenticateUseCase } from './authenticate.use-case';
import { AuthLimits } from './rate-limiter';

export const OPERATOR_TOKEN = Symbol('OPERATOR_TOKEN');

/**
 * Every route needs an API key unless marked otherwise; roles come from route metadata; each key and each
 * tenant has a request rate limit, and each client address a limit on failed authentications.
 */
const DEFAULT_ACCESS: Access = { kind: 'roles', roles: ['admin', 'poster', 'finance', 'auditor'] };

function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([!-~]{1,200})$/.exec(header);
  return match?.[1];
}

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateUseCase,
    private readonly limits: AuthLimits,
    @Inject(OPERATOR_TOKEN) private readonly operatorToken: string | undefined,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access =
      this.reflector.getAllAndOverride<Access>(ACCESS_METADATA, [context.getHandler(), context.getClass()]) ??
      DEFAULT_ACCESS;
    if (access.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (token === undefined)
      throw new DomainError('UNAUTHENTICATED', 'send an API key as "Authorization: Bearer <key>"');
    // An address that keeps presenting wrong keys is refused before its next one costs a lookup.
    const address = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
    refuseWhileLimited(
      this.limits.failuresPerAddress.retryAfter(address),
      'this address made too many failed authentications',
    );
    if (access.kind === 'operator') {
      if (this.operatorToken === undefined || !constantTimeEquals(sha256(token), sha256(this.operatorToken))) {
        this.limits.failuresPerAddress.take(address);
        throw new DomainError('UNAUTHENTICATED', 'this route needs the operator token');
      }
      return true;
    }
    const principal = await this.authenticate.execute(token);
    if (principal === undefined) {
      this.limits.failuresPerAddress.take(address);
      throw new DomainError('UNAUTHENTICATED', 'the API key is not valid');
    }
    // The key's bucket first: a key over its own limit does not use up its tenant's.
    refuseWhileLimited(this.limits.perKey.take(principal.keyId), 'this API key sent more requests than its limit');
    refuseWhileLimited(
      this.limits.perTenant.take(principal.tenantId),
      "this API key's tenant sent more requests than its limit",
    );
    if (!access.roles.some((role) => principal.roles.includes(role))) {
      throw new DomainError('FORBIDDEN', `this needs one of the roles: ${access.roles.join(', ')}`, {
        required: access.roles,
      });
    }
    request.principal = principal;
    return true;
  }
}

type GuardedRequest = AuthenticatedRequest & {
  headers: Record<string, unknown>;
  ip?: string;
  socket?: { remoteAddress?: string };
};

function refuseWhileLimited(retryAfterSeconds: number, why: string): void {
  if (retryAfterSeconds > 0)
    throw new DomainError('RATE_LIMITED', `${why}; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

export function constantTimeEquals(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
