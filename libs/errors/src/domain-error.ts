// Every error a client can cause carries a stable code. Domain code throws these; one exception
// filter in the API turns them into `{"error": {code, message, details}}` with the status below.

export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  IDEMPOTENCY_KEY_MISSING: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  PROOF_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  EXTERNAL_REF_CONFLICT: 409,
  ACCOUNT_CODE_CONFLICT: 409,
  HOLD_ALREADY_RESOLVED: 409,
  HOLD_EXPIRED: 409,
  RECONCILIATION_IN_PROGRESS: 409,
  ALREADY_REVERSED: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  LAST_ADMIN_KEY: 409,
  TICKET_NOT_CLOSED: 409,
  QUOTE_EXPIRED: 409,
  QUOTE_ALREADY_USED: 409,
  PAYMENT_ORDER_NOT_CANCELLABLE: 409,
  STALE_VERSION: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNBALANCED: 422,
  INSUFFICIENT_FUNDS: 422,
  CURRENCY_MISMATCH: 422,
  AMOUNT_OUT_OF_RANGE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  IMPORT_INVALID: 422,
  FORMAT_NOT_RECOGNISED: 422,
  NOT_A_HOLD: 422,
  NOT_REVERSIBLE: 422,
  NOT_ADJUSTABLE: 422,
  QUOTE_MISMATCH: 422,
  AMOUNT_ROUNDS_TO_ZERO: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Answers about the moment, not about the request: the same request a little later may well succeed
 * (another request with the key is still running, the tenant's reconciliation run is still going, too
 * many requests, the database is away). Such an answer is never stored under an Idempotency-Key, so a
 * retry with the same key does the work once the moment has passed.
 */
export const TRANSIENT_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'RECONCILIATION_IN_PROGRESS',
  'RATE_LIMITED',
  'UNAVAILABLE',
]);

export type ErrorDetails = Record<string, unknown>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** See `TRANSIENT_ERRORS`. */
  get transient(): boolean {
    return TRANSIENT_ERRORS.has(this.code);
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details: ErrorDetails };
}

export function errorBody(code: string, message: string, details: ErrorDetails = {}): ErrorBody {
  return { error: { code, message, details } };
}
