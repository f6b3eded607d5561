/** A request's outcome as the client saw it: an answer (any status), never an exception for 4xx/5xx. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Longer than any request the API should take; a hung request is a failure the tests report. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A JSON request; throws only when no answer came (refused, reset, timed out). */
export async function requestJson(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; idempotencyKey?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key) headers['authorization'] = `Bearer ${options.key}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
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
