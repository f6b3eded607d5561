/** A request's outcome as the client saw it: an answer (any status), never an exception for 4xx/5xx. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface RequestOptions {
  key?: string;
  /** Sent as JSON, or as it is when already text. */
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** Give up (throw) after this long; none by default. */
  timeoutMs?: number;
}

/** A JSON request to the API; throws only when no answer came (refused, reset, timed out). */
export async function requestJson(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
    signal: options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text.length ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** Whether the API at `baseUrl` answers /health with 200 (false while it starts, or when it cannot be reached). */
export async function apiIsHealthy(baseUrl: string): Promise<boolean> {
  try {
    return (await requestJson(baseUrl, 'GET', '/health', { timeoutMs: 2_000 })).status === 200;
  } catch {
    return false;
  }
}
