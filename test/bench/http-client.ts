import http from 'node:http';

// node:http with a keep-alive agent rather than fetch: the load generator shares two cores with the
// server and PostgreSQL, and fetch costs noticeably more client CPU per request.

const REQUEST_TIMEOUT_MS = 30_000;

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  path: string;
  bearer?: string;
  idempotencyKey?: string;
  body?: unknown;
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
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.bearer !== undefined) headers.authorization = `Bearer ${request.bearer}`;
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolveAnswer, reject) => {
      const outgoing = http.request(
        {
          agent: this.agent,
          hostname: this.url.hostname,
          port: this.url.port,
          method: request.method,
          path: request.path,
          headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolveAnswer({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          incoming.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`${request.method} ${request.path} timed out`)));
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  /** A request that must succeed with `expectedStatus`; answers the parsed JSON body. */
  async expectJson<T>(request: JsonRequest, expectedStatus: number): Promise<T> {
    const answer = await this.request(request);
    if (answer.status !== expectedStatus) {
      throw new Error(`${request.method} ${request.path}: expected ${expectedStatus}, got ${answer.status} ${answer.body.slice(0, 500)}`);
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
