import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/ledger-api';

/** A client of the ledger's API, typed from its OpenAPI document: `client.POST('/v1/transactions', ...)`. */
export type LedgerClient = Client<paths>;

export interface LedgerClientOptions {
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Attempts of a repeatable request (see `createLedgerClient`), at least 1; default 4. */
  attemptsMax?: number;
  /** The wait before attempt `attempt + 1` without a Retry-After; default: full jitter, 100 ms doubling to 2 s. */
  retryDelayMs?: (attempt: number) => number;
}

const ATTEMPTS_MAX_DEFAULT = 4;
const RETRY_DELAY_BASE_MS = 100;
const RETRY_DELAY_CAP_MS = 2_000;
/** A Retry-After longer than this is not waited for: the answer goes to the caller. */
const RETRY_AFTER_SECONDS_MAX = 10;

/** A fresh Idempotency-Key. Keep it with the work it names: a retry of the same work must send the same key. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

function defaultRetryDelayMs(attempt: number): number {
  return Math.random() * Math.min(RETRY_DELAY_CAP_MS, RETRY_DELAY_BASE_MS * 2 ** (attempt - 1));
}

/** A GET, or a POST that carries its Idempotency-Key: sending it again cannot do the work twice. */
function repeatable(request: Request): boolean {
  return request.method === 'GET' || request.headers.has('idempotency-key');
}

/** The outcome is unknown or not there yet: the server failed, was away, limited the rate, or still runs the first. */
async function worthRetrying(response: Response): Promise<boolean> {
  if (response.status >= 500 || response.status === 429) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return body?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
}

function retryAfterMs(response: Response | undefined): number | undefined {
  const seconds = Number(response?.headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= RETRY_AFTER_SECONDS_MAX ? seconds * 1000 : undefined;
}

function retrying(options: LedgerClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const attemptsMax = Math.max(1, options.attemptsMax ?? ATTEMPTS_MAX_DEFAULT);
  const delayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  return async (request) => {
    const attempts = repeatable(request) ? attemptsMax : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      let response: Response | undefined;
      try {
        // Every attempt but the last sends a copy: a body can be read once.
        response = await send(last ? request : request.clone());
        if (last || !(await worthRetrying(response))) return response;
        await response.body?.cancel();
      } catch (error) {
        if (last) throw error;
      }
      const wait = retryAfterMs(response) ?? delayMs(attempt);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}

/**
 * A typed client for `baseUrl` that sends `apiKey` as the bearer token. Every POST that changes something
 * requires an `Idempotency-Key` (the types ask for it in `params.header`); a request that may be sent
 * again without doing the work twice (a GET, or a POST with its key) is retried with the same key after
 * a network error, a 5xx, a 429 or a 409 `IDEMPOTENCY_KEY_IN_PROGRESS`, up to `attemptsMax` attempts,
 * honouring `Retry-After`. The last answer is the caller's: `{data}` on 2xx, `{error}` (the API's
 * `{"error": {code, message, details}}`, typed per route) otherwise.
 */
export function createLedgerClient(baseUrl: string, apiKey: string, options: LedgerClientOptions = {}): LedgerClient {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${apiKey}` },
    fetch: retrying(options),
  });
}
