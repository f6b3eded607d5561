import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Observable, catchError, from, lastValueFrom, mergeMap } from 'rxjs';
import { Database, type ReadSource, isDatabaseUnavailable, parseWalPosition } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { ReplayedResponse } from '@ledger/idempotency';

/** A write's answer: the primary's WAL position after it committed; a read sending it back sees the write. */
export const CONSISTENCY_HEADER = 'Ledger-Consistency';
/** A read's answer: whether the replica or the primary served it. */
export const READ_FROM_HEADER = 'Ledger-Read-From';

const READS_METADATA = 'ledger:reads';

/**
 * A GET route that reads the primary even with a replica: the event feed (its fence is the primary's
 * running transactions, which a standby cannot see), /health and /metrics (the primary's own state).
 */
export const ReadsFromPrimary = () => SetMetadata(READS_METADATA, 'primary');

const READ_METHODS = new Set(['GET', 'HEAD']);

function consistencyTokenOf(header: string | string[] | undefined): bigint | undefined {
  if (header === undefined) return undefined;
  const position = typeof header === 'string' ? parseWalPosition(header) : undefined;
  if (position === undefined) {
    throw new DomainError('VALIDATION_FAILED', `${CONSISTENCY_HEADER} must be a token a write answered with`, {
      fields: [{ path: CONSISTENCY_HEADER, message: 'not a WAL position such as 16/B374D848' }],
    });
  }
  return position;
}

function say(reply: FastifyReply, servedBy: ReadSource): void {
  // A handler that streams its answer has sent its headers by the time the read ends.
  if (!reply.raw.headersSent) reply.header(READ_FROM_HEADER, servedBy);
}

/**
 * With a read replica (DATABASE_READ_URL): a read-only request reads from the replica, once it has replayed
 * the write named by the request's `Ledger-Consistency` token (if any), and the primary serves it when the
 * replica is behind or unusable; every other request answers the token of what it wrote. Registered
 * outermost (ApiModule), so the token is taken after the idempotency interceptor's transaction committed.
 */
@Injectable()
export class ReadConsistencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: Database,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const replica = this.database.replica;
    if (replica === undefined) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (!READ_METHODS.has(request.method)) {
      return next.handle().pipe(
        mergeMap(async (value: unknown) => {
          await this.answerToken(reply);
          return value;
        }),
        catchError((error: unknown) =>
          from(
            (async () => {
              // A replayed answer is a write that committed earlier: its reader needs the token as well.
              if (error instanceof ReplayedResponse) await this.answerToken(reply);
              throw error;
            })(),
          ),
        ),
      );
    }
    if (this.reflector.get<string | undefined>(READS_METADATA, context.getHandler()) === 'primary') {
      say(reply, 'primary');
      return next.handle();
    }
    const after = consistencyTokenOf(request.headers[CONSISTENCY_HEADER.toLowerCase()]);
    return from(
      replica.read(after, async (route) => {
        say(reply, route.servedBy);
        try {
          return await lastValueFrom(next.handle());
        } finally {
          // It may have fallen back to the primary on the way.
          say(reply, route.servedBy);
        }
      }),
    );
  }

  private async answerToken(reply: FastifyReply): Promise<void> {
    if (reply.raw.headersSent) return;
    try {
      const token = await this.database.consistencyToken();
      if (token !== undefined && !reply.raw.headersSent) reply.header(CONSISTENCY_HEADER, token);
    } catch (error) {
      // The write committed; a primary gone since then costs the token, not the answer.
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }
}
