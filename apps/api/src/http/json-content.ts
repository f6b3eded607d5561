import type { NextFunction, Request, Response } from 'express';
import { DomainError, errorBody } from '@ledger/errors';

/** Deeper than any valid request (metadata nests at most 5 levels); checked before anything recurses. */
export const JSON_DEPTH_MAX = 32;

/**
 * What makes a parsed JSON body unstorable whatever the endpoint, or null: nesting deeper than `depthMax`,
 * or a string (value or key) that holds a NUL character (PostgreSQL text cannot) or half of a surrogate
 * pair (it could not be written as UTF-8 without silently becoming U+FFFD). One pass, no recursion,
 * stopping at the first problem.
 */
export function jsonContentProblem(
  value: unknown,
  depthMax: number,
  problemOf: (text: string) => string | null = unstorableTextProblem,
): { path: string; message: string } | null {
  // Every request passes through here once or twice: a node's path is spelled out only for the one
  // with a problem (from its parents' keys), not built as a string for every node on the way.
  const stack: ContentNode[] = [{ value, depth: 0, parent: null, key: 'body' }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return { path: pathOf(node), message: problem };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (node.depth + 1 > depthMax) return { path: 'body', message: `nests deeper than ${depthMax} levels` };
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child: ContentNode = { value: record[key], depth: node.depth + 1, parent: node, key };
      const problem = problemOf(key);
      if (problem) return { path: pathOf(child), message: `key ${problem}` };
      stack.push(child);
    }
  }
  return null;
}

interface ContentNode {
  value: unknown;
  depth: number;
  parent: ContentNode | null;
  /** Its key in the parent; `body` for the root. */
  key: string;
}

/** `body.a.b`: the keys from the root down. */
function pathOf(node: ContentNode): string {
  const keys: string[] = [];
  for (let at: ContentNode | null = node; at !== null; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/** Why PostgreSQL text cannot hold `text` as it is, or null. */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (!text.isWellFormed()) return 'contains half of a UTF-16 surrogate pair';
  return null;
}

/**
 * The refusal of a body (JSON or multipart fields) or a query with such a problem: 400, naming the field
 * (its path below the body or query, as the validation pipe names fields).
 */
export function unstorableContentError(
  problem: { path: string; message: string },
  where: 'body' | 'query' = 'body',
): DomainError {
  const field = problem.path.replace(/^body\.?/, '');
  return new DomainError('VALIDATION_FAILED', `the request ${where} ${field ? `at ${field} ` : ''}${problem.message}`, {
    fields: [{ path: field || where, message: problem.message }],
  });
}

export function jsonContentCheck(request: Request, response: Response, next: NextFunction): void {
  const problem = jsonContentProblem(request.body, JSON_DEPTH_MAX);
  if (problem !== null) {
    const error = unstorableContentError(problem);
    response.status(error.status).json(errorBody(error.code, error.message, error.details));
    return;
  }
  next();
}
