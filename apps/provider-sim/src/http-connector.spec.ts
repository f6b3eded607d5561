// The real client (HttpConnector of @ledger/payments) against the real simulator, over HTTP on port 0.
// It lives beside the simulator because a lib never imports an app; the client comes in through its index.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectStatement } from '@ledger/imports';
import { HttpConnector, PROVIDER_SIGNATURE_HEADER, type SubmitRequest } from '@ledger/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults';
import { type RunningProviderSim, startProviderSim } from './server';

const SECRET = 'sim_secret_spec';
const WEBHOOK_SECRET = 'sim_webhook_spec';

interface ReceivedWebhook {
  signature: string | undefined;
  raw: Buffer;
  eventId: string;
  type: string;
  key: string;
}

let sim: RunningProviderSim;
let receiver: Server;
const received: ReceivedWebhook[] = [];
let receiverRequests = 0;
/** The event the receiver refused once: the provider must deliver it again. */
let refusedEventId: string | undefined;

function request(key: string, overrides: Partial<SubmitRequest> = {}): SubmitRequest {
  return {
    idempotencyKey: key,
    reference: key.replace(/:submit$/, ''),
    direction: 'payout',
    amountMinor: 1050n,
    currency: 'EUR',
    counterparty: { name: 'Acme GmbH', iban: 'DE89370400440532013000', country: 'DE' },
    description: 'Invoice 42',
    ...overrides,
  };
}

function connector(overrides: { secret?: string; requestTimeoutMs?: number } = {}): HttpConnector {
  return new HttpConnector({
    baseUrl: sim.url,
    secret: overrides.secret ?? SECRET,
    webhookSecret: WEBHOOK_SECRET,
    requestTimeoutMs: overrides.requestTimeoutMs ?? 5_000,
  });
}

async function setFaults(faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${sim.url}/__sim/faults`, { method: 'PUT', body: JSON.stringify(faults) });
  expect(response.status).toBe(200);
}

async function executions(key: string): Promise<number> {
  const response = await fetch(`${sim.url}/__sim/executions?key=${encodeURIComponent(key)}`);
  const body = (await response.json()) as { executions: Record<string, number> };
  return body.executions[key]!;
}

/** Waits for what happens later (webhooks, a delayed execution); the test's own timeout bounds the wait. */
async function eventually<T>(read: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startReceiver(): Promise<string> {
  receiver = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      receiverRequests += 1;
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as {
        id: string;
        type: string;
        payment: { idempotencyKey: string };
      };
      if (receiverRequests === 1) {
        refusedEventId = body.id;
        return void response.writeHead(503).end();
      }
      const signature = incoming.headers[PROVIDER_SIGNATURE_HEADER.toLowerCase()];
      received.push({
        signature: signature as string | undefined,
        raw,
        eventId: body.id,
        type: body.type,
        key: body.payment.idempotencyKey,
      });
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`),
    ),
  );
}

beforeAll(async () => {
  const webhookUrl = await startReceiver();
  sim = await startProviderSim(
    {
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      webhookUrl,
      webhookSecret: WEBHOOK_SECRET,
      faults: NO_FAULTS,
      seed: 'http-connector-spec',
      executeDelayMs: 0,
    },
    () => {},
  );
});

afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('HttpConnector against the provider simulator', () => {
  it('submits a payment that executes, and a repeat of its key answers the same payment', async () => {
    await setFaults({});
    const first = await connector().submit(request('order-ok:submit'));
    expect(first).toMatchObject({
      kind: 'payment',
      payment: { idempotencyKey: 'order-ok:submit', reference: 'order-ok', status: 'executed', amountMinor: 1050n },
      detail: { httpStatus: 201 },
    });
    const again = await connector().submit(request('order-ok:submit'));
    expect(again).toMatchObject({ kind: 'payment', detail: { httpStatus: 200 } });
    expect(again.kind === 'payment' && first.kind === 'payment' && again.payment).toEqual(
      first.kind === 'payment' && first.payment,
    );
    expect(await connector().status('order-ok:submit')).toMatchObject({
      kind: 'payment',
      payment: { status: 'executed' },
    });
    expect(await executions('order-ok:submit')).toBe(1);
  });

  it('reads a rejection as refused, and the status as rejected, never executed', async () => {
    await setFaults({ reject: 1 });
    const answer = await connector().submit(request('order-rejected:submit'));
    await setFaults({});
    expect(answer).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^REJECTED: /) });
    expect(answer.detail).toMatchObject({ httpStatus: 422, body: expect.stringContaining('REJECTED') });
    expect(await connector().status('order-rejected:submit')).toMatchObject({
      kind: 'payment',
      payment: { status: 'rejected', executedAt: null },
    });
    expect(await executions('order-rejected:submit')).toBe(0);
  });

  it('reads a 503 before execution as unknown, and nothing was executed', async () => {
    await setFaults({ error_before_execute: 1 });
    const answer = await connector().submit(request('order-503:submit'));
    await setFaults({});
    expect(answer).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/HTTP 503/) });
    expect(await connector().status('order-503:submit')).toMatchObject({ kind: 'not_found' });
    expect(await executions('order-503:submit')).toBe(0);
  });

  it('reads a withheld answer as unknown; the status then shows it executed once', async () => {
    await setFaults({ timeout_after_execute: 1 });
    const answer = await connector({ requestTimeoutMs: 200 }).submit(request('order-timeout:submit'));
    await setFaults({});
    expect(answer).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/no answer within 200 ms/) });
    expect(answer.detail).toMatchObject({ httpStatus: null });
    expect(await connector().status('order-timeout:submit')).toMatchObject({
      kind: 'payment',
      payment: { status: 'executed' },
    });
    expect(await connector().submit(request('order-timeout:submit'))).toMatchObject({ kind: 'payment' });
    expect(await executions('order-timeout:submit')).toBe(1);
  });

  it('answers not_found for a key the provider never received', async () => {
    expect(await connector().status('order-never:submit')).toMatchObject({
      kind: 'not_found',
      detail: { httpStatus: 404 },
    });
  });

  it('reads a wrong bearer as unknown (our configuration), not as a refusal', async () => {
    const answer = await connector({ secret: 'wrong' }).submit(request('order-bad-auth:submit'));
    expect(answer).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/401 UNAUTHENTICATED.*credentials/),
    });
    expect(await connector({ secret: 'wrong' }).status('order-ok:submit')).toMatchObject({ kind: 'unknown' });
    expect(await executions('order-bad-auth:submit')).toBe(0);
  });

  it('reads the same key with another body as unknown: a payment exists under it', async () => {
    await connector().submit(request('order-reused:submit'));
    const answer = await connector().submit(request('order-reused:submit', { amountMinor: 999n }));
    expect(answer).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/IDEMPOTENCY_KEY_REUSED/) });
    expect(await executions('order-reused:submit')).toBe(1);
  });

  it('reads a provider that is not there as unknown', async () => {
    const vacant = createServer();
    await new Promise<void>((resolve) => vacant.listen(0, '127.0.0.1', resolve));
    const { port } = vacant.address() as AddressInfo;
    await new Promise((resolve) => vacant.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}`;
    const closed = new HttpConnector({ baseUrl, secret: SECRET, webhookSecret: '', requestTimeoutMs: 2000 });
    expect(await closed.submit(request('order-nowhere:submit'))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/request failed \(ECONNREFUSED/),
    });
  });

  it('sends signed webhooks for the execution and the return, retried past a failure', async () => {
    await setFaults({ return: 1 });
    await connector().submit(request('order-returned:submit'));
    await setFaults({});
    const hooks = await eventually(() => {
      const mine = received.filter((hook) => hook.key === 'order-returned:submit');
      const types = new Set(mine.map((hook) => hook.type));
      return types.has('payment.executed') && types.has('payment.returned') ? mine : undefined;
    });
    const now = Math.floor(Date.now() / 1000);
    const checks = hooks.map((hook) => connector().verifyWebhook(hook.signature, hook.raw, now));
    expect(checks.every((check) => check.ok)).toBe(true);
    const returned = checks.find((check) => check.ok && check.notification.payment.status === 'returned');
    expect(returned).toMatchObject({
      ok: true,
      notification: { eventId: expect.stringMatching(/^evt_/), payment: { reason: expect.any(String) } },
    });
    const hook = hooks[0]!;
    const tampered = Buffer.from(hook.raw.toString('utf8').replace('"1050"', '"1"'));
    expect(connector().verifyWebhook(hook.signature, tampered, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(connector().verifyWebhook(undefined, hook.raw, now)).toEqual({ ok: false, reason: 'bad_signature' });
    const stranger = new HttpConnector({
      baseUrl: sim.url,
      secret: SECRET,
      webhookSecret: 'other',
      requestTimeoutMs: 1,
    });
    expect(stranger.verifyWebhook(hook.signature, hook.raw, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await executions('order-returned:submit')).toBe(1);
    expect(refusedEventId).toBeDefined();
    await eventually(() => (received.some((each) => each.eventId === refusedEventId) ? true : undefined));
  });

  it('reports executions and returns as bank CSV the imports read', async () => {
    await eventually(() => (sim.provider.find('order-returned:submit')?.status === 'returned' ? true : undefined));
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const url = `${sim.url}/v1/reports/settlement?from=${day(-1)}&to=${day(1)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } });
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await response.text();
    async function* input() {
      yield text;
    }
    const { lines, errors } = await collectStatement('csv:bank', input(), { linesMax: 100, accountId: 'sim' });
    expect(errors).toEqual([]);
    const byReference = new Map(lines.map((line) => [line.references.customerReference, line.amountMinor]));
    expect(byReference.get('order-ok')).toBe(-1050n);
    expect(byReference.get('order-returned')).toBe(-1050n);
    expect(byReference.get('order-returned:return')).toBe(1050n);
    expect(byReference.has('order-rejected')).toBe(false);
    expect(byReference.has('order-503')).toBe(false);
    expect((await fetch(url)).status).toBe(401);
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await fetch(`${sim.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'idempotency-key': 'big', 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await executions('big')).toBe(0);
  });
});
