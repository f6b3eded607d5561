import type { NextFunction, Request, Response } from 'express';
import { errorBody } from '@ledger/errors';

/** Deeper than any valid request (metadata nests at most 5 levels); checked before anything recurses. */
export const JSON_DEPTH_MAX = 32;

/**
 * What makes a parsed JSON body unstorable whatever the endpoint, or null: nesting deeper than `depthMax`,
 * or a string (value or key) that holds a NUL character (PostgreSQL text cannot) or half of a surrogate
 * pair (it could not be written as UTF-8 without silently becoming U+FFFD). One pass, no recursion,
 * stopping at the first problem.
 */
export function jsonContentProblem(value: unknown, depthMax: number): { path: string; message: string } | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: 'body' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = stringProblem(current);
      if (problem) return { path, message: problem };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > depthMax) return { path: 'body', message: `nests deeper than ${depthMax} levels` };
    for (const [key, child] of Object.entries(current)) {
      const childPath = `${path}.${key}`;
      const problem = stringProblem(key);
      if (problem) return { path: childPath, message: `key ${problem}` };
      stack.push({ value: child, depth: depth + 1, path: childPath });
    }
  }
  return null;
}

function stringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (!text.isWellFormed()) return 'contains half of a UTF-16 surrogate pair';
  return null;
}

export function jsonContentCheck(request: Request, response: Response, next: NextFunction): void {
  const problem = jsonContentProblem(request.body, JSON_DEPTH_MAX);
  if (problem !== null) {
    response
      .status(400)
      .json(
        errorBody(
          'VALIDATION_FAILED',
          `the request body ${problem.path === 'body' ? '' : `at ${problem.path} `}${problem.message}`,
          { fields: [{ path: problem.path.replace(/^body\.?/, '') || 'body', message: problem.message }] },
        ),
      );
    return;
  }
  next();
}
