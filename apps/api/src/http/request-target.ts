import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@ledger/errors';
import { invalidUtf8Offset } from './json-text';

/** The bytes a percent-encoded text stands for (`+` is a space in a query); characters as their UTF-8. */
function percentDecoded(text: string, plusIsSpace: boolean): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const hex = char === '%' ? text.slice(index + 1, index + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else if (plusIsSpace && char === '+') bytes.push(0x20);
    else bytes.push(...Buffer.from(char, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodedProblem(text: string, plusIsSpace: boolean): string | null {
  if (!text.includes('%')) return null;
  const bytes = percentDecoded(text, plusIsSpace);
  if (bytes.includes(0)) return 'contains a NUL character (%00)';
  if (invalidUtf8Offset(bytes) !== -1) return 'is not valid UTF-8 once percent-decoded';
  return null;
}

/**
 * What in a request target (`/path?query`) no route can store or even decode faithfully, or null: a
 * percent-encoded NUL (PostgreSQL text cannot hold it) or bytes that are not UTF-8 (they would fail to
 * decode, or silently become U+FFFD). A query parameter is named by its name, a path segment as `path`.
 */
export function requestTargetProblem(target: string): { path: string; message: string; where: string } | null {
  // Only a percent-encoded byte can be any of these problems: a target without one needs no splitting.
  if (!target.includes('%')) return null;
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const segments = path.split('/');
  for (const [position, segment] of segments.entries()) {
    const problem = decodedProblem(segment, false);
    if (problem !== null)
      return { path: 'path', message: problem, where: `path segment ${position} "${segment.slice(0, 60)}"` };
  }
  if (queryAt === -1) return null;
  for (const pair of target.slice(queryAt + 1).split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s);
    const nameProblem = decodedProblem(name, true);
    if (nameProblem !== null) return { path: 'query', message: nameProblem, where: 'query parameter name' };
    const valueProblem = decodedProblem(value, true);
    if (valueProblem === null) continue;
    const field = percentDecoded(name, true).toString('utf8');
    return { path: field, message: valueProblem, where: `query parameter ${field.slice(0, 60)}` };
  }
  return null;
}

/** The refusal of such a target: 400 VALIDATION_FAILED naming the field. */
export function requestTargetError(problem: { path: string; message: string; where: string }): DomainError {
  return new DomainError('VALIDATION_FAILED', `the request's ${problem.where} ${problem.message}`, {
    fields: [{ path: problem.path, message: problem.message }],
  });
}

/** Refuses such a request target before any route runs (an `onRequest` hook, on the target as Node received it). */
export function requestTargetCheck(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const problem = requestTargetProblem(request.raw.url ?? '/');
  done(problem === null ? undefined : requestTargetError(problem));
}

/**
 * The target with one trailing slash of its path removed (`/v1/accounts/` is `/v1/accounts`), except under
 * the file trees (`fileTrees`: the console's and the API docs' paths), whose directories are answered with
 * their slash.
 */
export function withoutTrailingSlash(target: string, fileTrees: readonly string[]): string {
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (path.length <= 1 || !path.endsWith('/') || fileTrees.some((tree) => path.startsWith(tree))) return target;
  return path.slice(0, -1) + (queryAt === -1 ? '' : target.slice(queryAt));
}
