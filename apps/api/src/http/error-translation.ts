import { isDatabaseUnavailable, sqlErrorFields } from '@ledger/db';
import { DomainError, ERROR_STATUS, type ErrorBody, errorBody } from '@ledger/errors';
import { ReplayedResponse } from '@ledger/idempotency';
import { HttpException } from '@nestjs/common';
import { DUPLICATE_KEY_ERROR, INVALID_UTF8_ERROR } from './json-body';

export interface HttpErrorResponse {
  status: number;
  body: ErrorBody | unknown;
  headers: Record<string, string>;
  /** Unexpected: logged with its stack. */
  unexpected: boolean;
}

// Errors that body-parser raises before any of our code runs.
const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.too.large': { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' },
  'entity.parse.failed': { status: 400, code: 'VALIDATION_FAILED', message: 'the request body is not valid JSON' },
  'encoding.unsupported': { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content encoding' },
  'charset.unsupported': { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported charset' },
  [DUPLICATE_KEY_ERROR]: {
    status: 400,
    code: 'VALIDATION_FAILED',
    message: 'the request body has a key twice in one object',
  },
  [INVALID_UTF8_ERROR]: { status: 400, code: 'VALIDATION_FAILED', message: 'the request body is not valid UTF-8' },
};

/** What of the request decides the wording of a 5xx: only a POST that sent a key is told to resend it. */
export interface RequestSummary {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

function retryAdvice(request: RequestSummary | undefined): string {
  const keyed = request?.method === 'POST' && request.headers['idempotency-key'] !== undefined;
  return keyed ? 'retry with the same Idempotency-Key' : 'retry later';
}

/** The fields our own body-parser checks name (a body that is not UTF-8). */
function parserDetails(error: unknown): Record<string, unknown> {
  const fields = (error as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? { fields } : {};
}

const RETRYABLE_SQLSTATE_CLASSES = ['08', '40', '53', '57'];

function fromDomain(error: DomainError): HttpErrorResponse {
  const retryAfter = error.details.retryAfterSeconds;
  const headers: Record<string, string> = typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {};
  return {
    status: error.status,
    body: errorBody(error.code, error.message, error.details),
    headers,
    unexpected: false,
  };
}

/** One mapping from anything thrown to the `{"error": {...}}` shape and a status. */
export function toHttpError(error: unknown, request?: RequestSummary): HttpErrorResponse {
  if (error instanceof ReplayedResponse) {
    return { status: error.status, body: error.body, headers: { 'Idempotent-Replayed': 'true' }, unexpected: false };
  }
  if (error instanceof DomainError) return fromDomain(error);
  if (error instanceof HttpException) {
    // Nest wraps body-parser's errors; the original names what went wrong.
    const wrapped = BODY_PARSER_ERRORS[(error.cause as { type?: string } | undefined)?.type ?? ''];
    if (wrapped)
      return {
        status: wrapped.status,
        body: errorBody(wrapped.code, error.message || wrapped.message, parserDetails(error.cause)),
        headers: {},
        unexpected: false,
      };
    const status = error.getStatus();
    const code =
      status === 404
        ? 'NOT_FOUND'
        : status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status >= 500
              ? 'INTERNAL'
              : 'VALIDATION_FAILED';
    return { status, body: errorBody(code, error.message), headers: {}, unexpected: status >= 500 };
  }
  const parserError = BODY_PARSER_ERRORS[(error as { type?: string } | null)?.type ?? ''];
  if (parserError)
    return {
      status: parserError.status,
      body: errorBody(parserError.code, (error as Error).message || parserError.message, parserDetails(error)),
      headers: {},
      unexpected: false,
    };
  const sql = sqlErrorFields(error);
  // A database that is restarting or out of reach is no fault of the request: the same request may be sent again.
  if (isDatabaseUnavailable(error) || (sql && RETRYABLE_SQLSTATE_CLASSES.includes(sql.code.slice(0, 2)))) {
    return {
      status: ERROR_STATUS.UNAVAILABLE,
      body: errorBody('UNAVAILABLE', `the database is busy or unreachable; ${retryAdvice(request)}`),
      headers: { 'Retry-After': '1' },
      unexpected: true,
    };
  }
  return {
    status: 500,
    body: errorBody('INTERNAL', `internal error; ${retryAdvice(request)}`),
    headers: {},
    unexpected: true,
  };
}
