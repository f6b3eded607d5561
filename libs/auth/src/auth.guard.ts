import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { ACCESS_METADATA, type Access, type AuthenticatedRequest } from './auth.decorators';
import { AuthenticateUseCase } from './authenticate.use-case';
import { RateLimiter } from './rate-limiter';

export const OPERATOR_TOKEN = Symbol('OPERATOR_TOKEN');

/**
 * Every route needs an API key unless marked otherwise; roles come from route metadata; each key has a
 * request rate limit.
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
    private readonly rateLimiter: RateLimiter,
    @Inject(OPERATOR_TOKEN) private readonly operatorToken: string | undefined,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access =
      this.reflector.getAllAndOverride<Access>(ACCESS_METADATA, [context.getHandler(), context.getClass()]) ??
      DEFAULT_ACCESS;
    if (access.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { headers: Record<string, unknown> }>();
    const token = bearerToken(request.headers.authorization);
    if (token === undefined)
      throw new DomainError('UNAUTHENTICATED', 'send an API key as "Authorization: Bearer <key>"');
    if (access.kind === 'operator') {
      if (this.operatorToken === undefined || !constantTimeEquals(sha256(token), sha256(this.operatorToken))) {
        throw new DomainError('UNAUTHENTICATED', 'this route needs the operator token');
      }
      return true;
    }
    const principal = await this.authenticate.execute(token);
    if (principal === undefined) throw new DomainError('UNAUTHENTICATED', 'the API key is not valid');
    const retryAfterSeconds = this.rateLimiter.take(principal.keyId);
    if (retryAfterSeconds > 0) {
      throw new DomainError(
        'RATE_LIMITED',
        `this API key sent more requests than its limit; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
      );
    }
    if (!access.roles.some((role) => principal.roles.includes(role))) {
      throw new DomainError('FORBIDDEN', `this needs one of the roles: ${access.roles.join(', ')}`, {
        required: access.roles,
      });
    }
    request.principal = principal;
    return true;
  }
}

export function constantTimeEquals(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
