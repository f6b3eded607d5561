import type { ApiPath } from './api-path';
import { readApiKey } from './session';

/** An answer other than 2xx, with the API's error code (`FORBIDDEN`, `IMPORT_INVALID`, ...). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
}

export type Query = Record<string, string | undefined>;

function url(path: ApiPath, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  const text = search.toString();
  return `${path}${text ? `?${text}` : ''}`;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const apiKey = readApiKey();
  return { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...extra };
}

/** The API answers JSON; anything else (a proxy's error page) is kept out of the way as no body. */
function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)
    ?.error;
  return new ApiError(
    status,
    error?.code ?? `HTTP_${status}`,
    error?.message ?? `the server answered ${status}`,
    error?.details ?? {},
  );
}

/** What a change may say beside its body: the version it is made to, the key that makes a retry land once. */
export interface ChangeOptions {
  /** Sent as `If-Match`: the `version` of the object as shown; a changed one answers 412 STALE_VERSION. */
  ifMatch?: number;
  /** POST only: the Idempotency-Key to send (one kept across retries of the same request); else a new one. */
  idempotencyKey?: string;
}

async function send<T>(
  method: string,
  path: ApiPath,
  options: { query?: Query; json?: unknown } & ChangeOptions = {},
): Promise<T> {
  const extra: Record<string, string> = {};
  if (options.json !== undefined) extra['content-type'] = 'application/json';
  if (options.ifMatch !== undefined) extra['if-match'] = String(options.ifMatch);
  // Every POST takes an Idempotency-Key: a retried click never does the work twice.
  if (method === 'POST') extra['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
  let response: Response;
  try {
    response = await fetch(url(path, options.query), {
      method,
      headers: headers(extra),
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'the server cannot be reached', {});
  }
  const body = parseBody(await response.text());
  if (!response.ok) throw toApiError(response.status, body);
  return body as T;
}

/** A multipart upload through XMLHttpRequest, the one browser API that reports upload progress. */
function upload<T>(path: ApiPath, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    for (const [name, value] of Object.entries(headers({ 'idempotency-key': crypto.randomUUID() })))
      request.setRequestHeader(name, value);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = parseBody(request.responseText);
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(toApiError(request.status, body));
    });
    request.addEventListener('error', () =>
      reject(new ApiError(0, 'NETWORK', 'the upload did not reach the server', {})),
    );
    request.send(form);
  });
}

export const api = {
  get: <T>(path: ApiPath, query?: Query) => send<T>('GET', path, { query }),
  post: <T>(path: ApiPath, json: unknown, options?: ChangeOptions) => send<T>('POST', path, { json, ...options }),
  patch: <T>(path: ApiPath, json: unknown, options?: ChangeOptions) => send<T>('PATCH', path, { json, ...options }),
  delete: <T>(path: ApiPath) => send<T>('DELETE', path),
  upload,
};
