import { ERROR_STATUS, type ErrorCode, errorBody } from '@ledger/errors';
import { z } from 'zod';
import { component, schemaRef } from './components';

/** What each code means to a client: the description of the answers that carry it. */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'the request is not valid; `details.fields` names each bad field and why',
  IDEMPOTENCY_KEY_MISSING: 'a POST without an `Idempotency-Key` header',
  UNAUTHENTICATED: 'no valid API key (or operator token, or message signature)',
  FORBIDDEN: "the key's roles do not allow this; `details.required` lists the roles that do",
  NOT_FOUND: "no such object in this tenant (another tenant's objects are not found either)",
  ACCOUNT_NOT_FOUND: 'a named account does not exist; `details.accounts` lists them',
  PROOF_NOT_FOUND: 'no balance proof has been issued yet, or none with this id (`POST /v1/proofs/balances` issues one)',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'the first request with this key is still running; retry later with the same key',
  EXTERNAL_REF_CONFLICT: 'the externalRef is already posted with other content',
  ACCOUNT_CODE_CONFLICT: 'an account with this code exists',
  HOLD_ALREADY_RESOLVED: 'the hold was already posted, voided or expired',
  HOLD_EXPIRED: 'the hold is past its expiry',
  RECONCILIATION_IN_PROGRESS:
    'a run of this tenant is queued or running (`details.runId`: follow it with GET); not stored under the ' +
    'Idempotency-Key, so the same request later starts a run',
  ALREADY_REVERSED: 'the transaction was reversed before',
  WEBHOOK_LIMIT_REACHED: 'the tenant has as many webhooks as allowed (`details.subscriptionsMax`); delete one first',
  LAST_ADMIN_KEY: "the key is the tenant's last live admin key; create another admin key before revoking it",
  TICKET_NOT_CLOSED:
    'the ticket is still being worked (open or acknowledged): only a resolved or ignored one is reopened; ' +
    '`details.status` is its status',
  QUOTE_EXPIRED: 'the quote named by `quoteId` is past its `expiresAt`; ask for a new quote',
  PAYMENT_ORDER_NOT_CANCELLABLE:
    'the payment order is past the point where it can be called off (`details.status`): once it was sent to ' +
    'the provider it can only complete, be rejected by the provider, or be returned',
  QUOTE_ALREADY_USED:
    'the quote was used by another conversion (`details.transactionId`); a quote is used at most once. ' +
    'The same request sent again with its Idempotency-Key answers the stored conversion instead',
  STALE_VERSION: 'the object changed since the version named in `If-Match`; `details.version` is the current one',
  PAYLOAD_TOO_LARGE: 'the body (or file) is larger than accepted',
  UNSUPPORTED_MEDIA_TYPE: 'a POST body that is not `application/json`',
  UNBALANCED: 'the entries do not sum to zero per currency',
  INSUFFICIENT_FUNDS: 'an account that may not go below zero would; `details` has the account and amounts',
  CURRENCY_MISMATCH: "an entry's currency is not its account's",
  AMOUNT_OUT_OF_RANGE: 'an amount or balance beyond 2^63 - 1 minor units',
  IDEMPOTENCY_KEY_REUSED: 'this key was used with another request (method, path or body)',
  IMPORT_INVALID: 'the file cannot be read exactly; `details.errors` lists every bad line, nothing was stored',
  FORMAT_NOT_RECOGNISED:
    "no format was named (on the import or the source) and the file's first bytes are none of the formats " +
    'tried (`details.tried`); name the format; nothing was stored',
  NOT_A_HOLD: 'the transaction is not a pending hold',
  NOT_REVERSIBLE: 'this transaction cannot be reversed (a hold, or a reversal)',
  NOT_ADJUSTABLE:
    'the ticket cannot be fixed by booking: not a missing_in_ledger or amount_mismatch ticket, no longer being ' +
    'worked, or its lines are matched since',
  QUOTE_MISMATCH:
    "the conversion's currencies or rate are not the quote's; `details.fields` names the field (a rate may be " +
    'left out with a quote)',
  AMOUNT_ROUNDS_TO_ZERO:
    'the amount converts to less than one minor unit of the target currency, rounded as asked; ' +
    '`details.fields` names `from.amount`',
  RATE_LIMITED:
    'the key sent more requests than its limit (or the tenant had its limit of new balance proofs this minute); ' +
    'wait `Retry-After` seconds',
  INTERNAL: 'an unexpected error; a POST may be sent again with the same Idempotency-Key',
  UNAVAILABLE: 'the database (or the proof signing key) is not available; retry after `Retry-After` seconds',
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Too large',
  415: 'Unsupported media type',
  422: 'Refused',
  429: 'Too many requests',
};

export const RETRY_AFTER_HEADER = { $ref: '#/components/headers/RetryAfter' };

const errorComponents = new Map<ErrorCode, z.ZodType>();

/** `{"error": {"code": <code>, ...}}` as a component (`InsufficientFundsError`), registered when first used. */
function errorComponent(code: ErrorCode): z.ZodType {
  const known = errorComponents.get(code);
  if (known) return known;
  const name = `${code
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Error`;
  const meaning = ERROR_MEANINGS[code];
  const schema = component(
    name,
    z
      .strictObject({
        error: z.strictObject({
          code: z.literal(code),
          message: z.string(),
          details: z.record(z.string(), z.unknown()),
        }),
      })
      .meta({ description: `\`${code}\`: ${meaning}.`, examples: [errorBody(code, meaning.replace(/`/g, ''))] }),
  );
  errorComponents.set(code, schema);
  return schema;
}

function answerOf(codes: readonly ErrorCode[], summary: string) {
  const sorted = [...new Set(codes)].sort();
  const schemas = sorted.map((code) => schemaRef(errorComponent(code)));
  const retry = sorted.includes('RATE_LIMITED') || sorted.includes('UNAVAILABLE');
  return {
    description: `${summary}: ${sorted.map((code) => `\`${code}\` ${ERROR_MEANINGS[code]}`).join('; ')}.`,
    ...(retry ? { headers: { 'Retry-After': RETRY_AFTER_HEADER } } : {}),
    content: { 'application/json': { schema: schemas.length === 1 ? schemas[0]! : { anyOf: schemas } } },
  };
}

/** One answer per status for `codes`, each listing its codes (its schema allows exactly those), and 5XX. */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, ReturnType<typeof answerOf>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    if (status >= 500) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const answers = Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [String(status), answerOf(statusCodes, STATUS_TEXT[status]!)]),
  );
  return { ...answers, '5XX': answerOf(['INTERNAL', 'UNAVAILABLE'], 'Server error (500, 503)') };
}
