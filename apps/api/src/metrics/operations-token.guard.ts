import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { sha256 } from '@ledger/ids';

export const OPERATIONS_TOKENS = Symbol('OPERATIONS_TOKENS');

/** The tokens that may read the operations figures: the metrics token (when set) and the operator token. */
export interface OperationsTokens {
  metricsToken: string | undefined;
  operatorToken: string | undefined;
}

function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer ([!-~]{1,200})$/.exec(header)?.[1];
}

/**
 * `/metrics`: figures summed over every tenant, for the operator's scraper only. A token is compared
 * by its SHA-256 in constant time, so neither its length nor its content leaks through timing. With
 * neither token configured nothing is accepted.
 */
@Injectable()
export class OperationsTokenGuard implements CanActivate {
  private readonly accepted: Buffer[];

  constructor(@Inject(OPERATIONS_TOKENS) tokens: OperationsTokens) {
    this.accepted = [tokens.metricsToken, tokens.operatorToken]
      .filter((token) => token !== undefined)
      .map((token) => sha256(token));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    const token = bearerToken(request.headers.authorization);
    if (token === undefined)
      throw new DomainError('UNAUTHENTICATED', 'send the metrics token as "Authorization: Bearer <token>"');
    const presented = sha256(token);
    // Every accepted token is compared, so the time taken does not say which one matched.
    const matches = this.accepted.map((accepted) => timingSafeEqual(presented, accepted));
    if (!matches.includes(true)) throw new DomainError('UNAUTHENTICATED', 'this route needs the metrics token');
    return true;
  }
}
