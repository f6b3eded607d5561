import type { NextFunction, Request, Response } from 'express';
import { errorBody } from '@ledger/errors';

/**
 * A POST with a body must say it is JSON; anything else is refused before it is parsed. The one
 * exception is a statement upload, already received by statementUpload.
 */
export function jsonOnly(request: Request, response: Response, next: NextFunction): void {
  if ((request as Request & { upload?: unknown }).upload !== undefined) return next();
  const hasBody = request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0';
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (request.method === 'POST' && (hasBody || chunked) && !request.is('application/json')) {
    response.status(415).json(errorBody('UNSUPPORTED_MEDIA_TYPE', 'send the request body as application/json'));
    return;
  }
  next();
}
