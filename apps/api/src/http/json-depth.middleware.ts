import type { NextFunction, Request, Response } from 'express';
import { errorBody } from '@ledger/errors';

/** Deeper than any valid request (metadata nests at most 5 levels); checked before anything recurses. */
export const JSON_DEPTH_MAX = 32;

/** The nesting depth of parsed JSON, without recursion, stopping as soon as it passes `limit`. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

export function jsonDepthLimit(request: Request, response: Response, next: NextFunction): void {
  if (jsonDepthExceeds(request.body, JSON_DEPTH_MAX)) {
    response
      .status(400)
      .json(errorBody('VALIDATION_FAILED', `the request body nests deeper than ${JSON_DEPTH_MAX} levels`, { fields: [{ path: 'body', message: 'too deeply nested' }] }));
    return;
  }
  next();
}
