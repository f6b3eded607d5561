import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';

// The verification snippet of the README, as a receiver would paste it.
export function verifyLedgerSignature(
  header: string,
  rawBody: string,
  secret: string,
  toleranceSeconds = 300,
): boolean {
  const fields = header.split(',').map((part) => part.split('='));
  const timestamp = Number(fields.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return fields
    .filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''))
    .some(([, value]) => timingSafeEqual(Buffer.from(value!, 'hex'), expected));
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A local HTTP endpoint that answers what `decide` says and records every request. */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server: Server | undefined;

  constructor(public decide: (request: Omit<ReceivedRequest, 'answered'>) => number) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received = { headers: request.headers, body: Buffer.concat(chunks).toString() };
        const answered = this.decide(received);
        this.requests.push({ ...received, answered });
        response.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  /** The bodies (parsed) the receiver accepted with a 2xx. */
  accepted(): any[] {
    return this.requests.filter((request) => request.answered < 300).map((request) => JSON.parse(request.body));
  }

  /** Stops at once, also when it never started or a client keeps a connection open. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
