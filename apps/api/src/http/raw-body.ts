import type { IncomingMessage } from 'node:http';
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { raw } from 'express';
import type { NextFunction, Request, Response } from 'express';

/** Signed gateway messages: read raw, their signature checked over these bytes before any JSON parsing. */
export const INBOUND_PATH = '/v1/inbound';
/** Payment providers' signed webhooks, read the same way. */
export const PROVIDER_WEBHOOK_PATH = '/v1/connectors/:id/webhooks';

type WithRawBody = IncomingMessage & { rawBody?: Buffer; body?: unknown };

/**
 * Reads the body as bytes, up to `limit` (413 beyond), into `rawBody`, and leaves `body` unset so that no
 * JSON parser runs: the handler parses the text once it has verified who sent it.
 */
export function signedRawBody(limit: number) {
  const read = raw({ type: () => true, limit });
  return (request: Request, response: Response, next: NextFunction) =>
    read(request, response, (error?: unknown) => {
      if (error) return next(error);
      const withRaw = request as WithRawBody;
      withRaw.rawBody = Buffer.isBuffer(withRaw.body) ? withRaw.body : Buffer.alloc(0);
      withRaw.body = undefined;
      next();
    });
}

export const RawBody = createParamDecorator((_data: unknown, context: ExecutionContext): Buffer => {
  return context.switchToHttp().getRequest<WithRawBody>().rawBody ?? Buffer.alloc(0);
});
