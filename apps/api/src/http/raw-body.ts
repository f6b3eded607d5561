import type { IncomingMessage } from 'node:http';
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';

/** Paths whose handlers need the exact bytes received (a signature is computed over them). */
const RAW_BODY_PATHS = ['/v1/inbound/'];

type WithRawBody = IncomingMessage & { rawBody?: string };

/** For express.json's `verify`: keeps the raw text of the bodies that are signed. */
export function keepSignedRawBody(request: IncomingMessage, _response: unknown, buffer: Buffer): void {
  if (RAW_BODY_PATHS.some((path) => request.url?.startsWith(path)))
    (request as WithRawBody).rawBody = buffer.toString('utf8');
}

export const RawBody = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<WithRawBody>().rawBody ?? '';
});
