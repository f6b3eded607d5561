import { isDatabaseUnavailable, sqlErrorFields } from '@ledger/db';
import { DomainError, ERROR_STATUS, type ErrorBody, errorBody } from '@ledger/errors';
import { ReplayedResponse } from '@ledger/idempotency';
import { HttpException } from '@nestjs/common';

export interface HttpErrorResponse {
  status: number;
  body: ErrorBody | unknown;
  headers: Record<string, string>;
  /** Unexpected: logged with its stack. */
  unexpected: boolean;
}

// Errors that Fastify raises before any of our code runs (Nest hands them over wrapped in an HttpException).
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'send the request body as application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'VALIDATION_FAILED',
    message: "the request body's length is not the Content-Length it declares",
  },
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
    const framework = FRAMEWORK_ERRORS[(error.cause as { code?: string } | undefined)?.code ?? ''];
    if (framework)
      return {
        status: framework.status,
        body: errorBody(framework.code, framework.message),
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
