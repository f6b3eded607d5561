import type { NextFunction, Request, Response } from 'express';
import { errorBody } from '@ledger/errors';
import { STATEMENT_UPLOAD_PATH } from './statement-upload';

/**
 * A POST with a body must say it is JSON; anything else is refused before it is parsed. The one
 * exception is a statement upload, received after authentication by StatementUploadReception.
 */
export function jsonOnly(request: Request, response: Response, next: NextFunction): void {
  if (request.path === STATEMENT_UPLOAD_PATH && request.is('multipart/form-data')) return next();
  const hasBody = request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0';
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (request.method === 'POST' && (hasBody || chunked) && !request.is('application/json')) {
    response.status(415).json(errorBody('UNSUPPORTED_MEDIA_TYPE', 'send the request body as application/json'));
    return;
  }
  next();
}
