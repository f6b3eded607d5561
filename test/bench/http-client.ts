import http from 'node:http';

// node:http with a keep-alive agent rather than fetch: the load generator shares two cores with the
// server and PostgreSQL, and fetch costs noticeably more client CPU per request.

const REQUEST_TIMEOUT_MS = 30_000;

export interface HttpAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  path: string;
  bearer?: string;
  idempotencyKey?: string;
  body?: unknown;
}

/** A multipart/form-data upload: text fields and one file, as a browser's form sends them. */
export interface UploadRequest {
  path: string;
  bearer: string;
  idempotencyKey: string;
  fields: Record<string, string>;
  file: { field: string; name: string; content: string };
}

function multipart(upload: UploadRequest): { payload: Buffer; contentType: string } {
  const boundary = `----ledger-bench-${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(upload.fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="${upload.file.field}"; ` +
      `filename="${upload.file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${upload.file.content}\r\n`,
  );
  parts.push(`--${boundary}--\r\n`);
  return { payload: Buffer.from(parts.join(''), 'utf8'), contentType: `multipart/form-data; boundary=${boundary}` };
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  /** One socket per concurrent caller, kept open across requests. */
  constructor(baseUrl: string, maxSockets: number) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(request: JsonRequest): Promise<HttpAnswer> {
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    return this.send(
      request.method,
      request.path,
      request,
      payload === undefined ? undefined : { payload: Buffer.from(payload, 'utf8'), contentType: 'application/json' },
    );
  }

  upload(upload: UploadRequest): Promise<HttpAnswer> {
    return this.send('POST', upload.path, upload, multipart(upload));
  }

  private send(
    method: string,
    path: string,
    auth: { bearer?: string; idempotencyKey?: string },
    content: { payload: Buffer; contentType: string } | undefined,
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth.bearer !== undefined) headers.authorization = `Bearer ${auth.bearer}`;
    if (auth.idempotencyKey !== undefined) headers['idempotency-key'] = auth.idempotencyKey;
    if (content !== undefined) {
      headers['content-type'] = content.contentType;
      headers['content-length'] = String(content.payload.length);
    }
    return new Promise((resolveAnswer, reject) => {
      const outgoing = http.request(
        {
          agent: this.agent,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolveAnswer({
              status: incoming.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              headers: incoming.headers,
            }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${path} timed out`)));
      outgoing.on('error', reject);
      outgoing.end(content?.payload);
    });
  }

  /** A request that must succeed with `expectedStatus`; answers the parsed JSON body. */
  async expectJson<T>(request: JsonRequest, expectedStatus: number): Promise<T> {
    const answer = await this.request(request);
    if (answer.status !== expectedStatus) {
      throw new Error(
        `${request.method} ${request.path}: expected ${expectedStatus}, got ${answer.status} ` +
          `${answer.body.slice(0, 500)}`,
      );
    }
    return JSON.parse(answer.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The `error.code` of an API error body, or the status alone when the body is not one. */
export function errorLabel(answer: HttpAnswer): string {
  try {
    const parsed = JSON.parse(answer.body) as { error?: { code?: unknown } };
    const code = parsed.error?.code;
    return typeof code === 'string' ? `${answer.status} ${code}` : String(answer.status);
  } catch {
    return String(answer.status);
  }
}
