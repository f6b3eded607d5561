import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { type FastifyInstance, type FastifyRequest, errorCodes } from 'fastify';
import { DomainError } from '@ledger/errors';
import { parseJsonBody } from './json-text';

/** Signed gateway messages: read raw, their signature checked over these bytes before any JSON parsing. */
export const INBOUND_PATH = '/v1/inbound/:source';
/** Payment providers' signed webhooks, read the same way. */
export const PROVIDER_WEBHOOK_PATH = '/v1/connectors/:id/webhooks';
/** The one route that takes a multipart body, read by StatementUploadReception once the key is checked. */
export const STATEMENT_UPLOAD_PATH = '/v1/imports';

const SIGNED_PATHS: ReadonlySet<string> = new Set([INBOUND_PATH, PROVIDER_WEBHOOK_PATH]);

type WithRawBody = FastifyRequest & { rawBody?: Buffer };

export interface BodyLimits {
  /** Every JSON body. */
  jsonBytesMax: number;
  /** The signed bodies (INBOUND_PATH, PROVIDER_WEBHOOK_PATH), read raw. */
  signedBytesMax: number;
}

function unsupported(message: string): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', message);
}

/** 415 for a body the API would have to decode first: compressed, or in a charset other than UTF-8. */
function refuseUndecodedBody(request: FastifyRequest): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity')
    throw unsupported(`unsupported content encoding "${encoding.slice(0, 40)}": send the body uncompressed`);
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw unsupported(`unsupported charset "${charset.slice(0, 40)}": send the body as UTF-8`);
}

/**
 * How the API reads request bodies, the only parsers it has (anything else is 415):
 * - `application/json`: up to `jsonBytesMax`, parsed by `parseJsonBody` (400 naming the field); on the
 *   signed routes the bytes are kept as they came (`@RawBody()`), up to `signedBytesMax`, and parsed by
 *   the handler once their signature verifies;
 * - `multipart/form-data`, on STATEMENT_UPLOAD_PATH only: left unread here, for StatementUploadReception
 *   to stream to disk after authentication.
 * An empty JSON body is `{}`. Routes get their limit when they are added (before Nest adds any).
 */
export function readRequestBodies(fastify: FastifyInstance, limits: BodyLimits): void {
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit = SIGNED_PATHS.has(route.url ?? '') ? limits.signedBytesMax : limits.jsonBytesMax;
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      refuseUndecodedBody(request);
      const bytes = body as Buffer;
      if (SIGNED_PATHS.has(request.routeOptions.url ?? '')) {
        (request as WithRawBody).rawBody = bytes;
        return done(null, undefined);
      }
      done(null, bytes.length === 0 ? {} : parseJsonBody(bytes));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    if (request.routeOptions.url === STATEMENT_UPLOAD_PATH) return done(null, undefined);
    // Elsewhere refused as a media type without a parser is: one refusal, worded in error-translation.
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined);
  });
}

export const RawBody = createParamDecorator((_data: unknown, context: ExecutionContext): Buffer => {
  return context.switchToHttp().getRequest<WithRawBody>().rawBody ?? Buffer.alloc(0);
});
