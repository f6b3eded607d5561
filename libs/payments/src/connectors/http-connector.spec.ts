// Answers no honest provider gives (a proxy's page, a body cut short, a redirect): a plain HTTP server
// plays each, so that the connector's reading of them is pinned. The provider itself is tested in
// apps/provider-sim/src/http-connector.spec.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeader } from '@ledger/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmitRequest } from './connector';
import { HttpConnector } from './http-connector';

interface Scripted {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

let server: Server;
let next: Scripted = { status: 200, body: '' };
let connector: HttpConnector;

const payment = {
  id: 'pay_1',
  idempotencyKey: 'o1:submit',
  reference: 'o1',
  status: 'executed',
  amount: '1050',
  currency: 'EUR',
  reason: null,
  executedAt: '2026-03-04T10:00:00.000Z',
  returnedAt: null,
};
const submitRequest: SubmitRequest = {
  idempotencyKey: 'o1:submit',
  reference: 'o1',
  direction: 'payout',
  amountMinor: 1050n,
  currency: 'EUR',
  counterparty: { name: 'Acme' },
  description: null,
};

function answer(scripted: Scripted) {
  next = scripted;
  return connector;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(next.status, next.headers).end(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  connector = new HttpConnector({
    baseUrl: `http://127.0.0.1:${port}/`,
    secret: 's',
    webhookSecret: 'w',
    requestTimeoutMs: 5000,
  });
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('HttpConnector reading answers', () => {
  it('reads a payment, with its evidence', async () => {
    const read = await answer({ status: 201, body: JSON.stringify(payment) }).submit(submitRequest);
    expect(read).toMatchObject({ kind: 'payment', payment: { providerId: 'pay_1', amountMinor: 1050n } });
    expect(read.detail).toEqual({ httpStatus: 201, body: JSON.stringify(payment), elapsedMs: expect.any(Number) });
  });

  it.each([
    ['a 2xx that is not JSON', { status: 200, body: '<html>ok</html>' }],
    ['a 2xx naming another key', { status: 200, body: JSON.stringify({ ...payment, idempotencyKey: 'o2:submit' }) }],
    ['a 2xx in an impossible state', { status: 200, body: JSON.stringify({ ...payment, executedAt: null }) }],
    ['a 2xx with a number amount', { status: 200, body: JSON.stringify({ ...payment, amount: 1050 }) }],
    ['a 2xx larger than any payment', { status: 200, body: JSON.stringify({ ...payment, pad: 'x'.repeat(70_000) }) }],
    ['a 4xx without the error body', { status: 400, body: 'Bad Request' }],
    ['a 409 (in flight)', { status: 409, body: '{"error":{"code":"IN_PROGRESS","message":"busy"}}' }],
    ['a 429', { status: 429, body: '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' }],
    ['a 403', { status: 403, body: '{"error":{"code":"FORBIDDEN","message":"no"}}' }],
    ['a 502 page', { status: 502, body: '<html>Bad Gateway</html>' }],
    ['a redirect', { status: 302, body: '', headers: { location: 'http://elsewhere.example/v1/payments' } }],
  ])('reads %s as unknown', async (_case, scripted) => {
    expect(await answer(scripted).submit(submitRequest)).toMatchObject({ kind: 'unknown' });
  });

  it('keeps at most 2 KiB of a body as evidence', async () => {
    const read = await answer({ status: 500, body: 'e'.repeat(10_000) }).submit(submitRequest);
    expect(read.detail.body).toHaveLength(2048 + 3);
  });

  it('reads a provider 4xx on submit as refused, with its code', async () => {
    const body = '{"error":{"code":"VALIDATION_FAILED","message":"counterparty.iban: too long"}}';
    expect(await answer({ status: 400, body }).submit(submitRequest)).toMatchObject({
      kind: 'refused',
      reason: 'VALIDATION_FAILED: counterparty.iban: too long',
    });
  });

  it('reads only the provider NOT_FOUND as not_found', async () => {
    const notFound = '{"error":{"code":"NOT_FOUND","message":"no payment"}}';
    expect(await answer({ status: 404, body: notFound }).status('o1:submit')).toMatchObject({ kind: 'not_found' });
    expect(await answer({ status: 404, body: 'Not Found' }).status('o1:submit')).toMatchObject({ kind: 'unknown' });
    const other = '{"error":{"code":"VALIDATION_FAILED","message":"bad key"}}';
    expect(await answer({ status: 400, body: other }).status('o1:submit')).toMatchObject({ kind: 'unknown' });
  });
});

describe('HttpConnector.verifyWebhook', () => {
  const now = 1_772_618_400;
  const body = JSON.stringify({ id: 'evt_1', type: 'payment.executed', payment });

  it('reads a signed event', () => {
    const check = connector.verifyWebhook(signatureHeader(body, ['w'], now), Buffer.from(body), now);
    expect(check).toMatchObject({ ok: true, notification: { eventId: 'evt_1', payment: { status: 'executed' } } });
  });

  it('refuses a bad or stale signature before reading, and a signed body that is not an event', () => {
    expect(connector.verifyWebhook(signatureHeader(body, ['x'], now), Buffer.from(body), now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(connector.verifyWebhook(signatureHeader(body, ['w'], now - 3600), Buffer.from(body), now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const odd = JSON.stringify({ id: 'evt_2', type: 'payment.lost', payment });
    expect(connector.verifyWebhook(signatureHeader(odd, ['w'], now), Buffer.from(odd), now)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
  });
});
