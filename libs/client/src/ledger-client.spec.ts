import { describe, expect, it } from 'vitest';
import { createLedgerClient } from './ledger-client';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';

/** A fetch that answers from a script and records what it was sent. */
function scripted(answers: Answer[]) {
  const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no more answers scripted');
    if (answer === 'network-error') throw new TypeError('fetch failed');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch, sent };
}

const unavailable = { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'down', details: {} } } };
const inProgress = {
  status: 409,
  body: { error: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS', message: 'running', details: {} } },
};
const transfer = {
  entries: [
    { account: 'assets:cash', direction: 'debit' as const, amount: '100', currency: 'USD' },
    { account: 'income:sales', direction: 'credit' as const, amount: '100', currency: 'USD' },
  ],
};

describe('createLedgerClient', () => {
  it('sends the API key as a bearer token to the base URL', async () => {
    const server = scripted([{ status: 200, body: { id: 'k', tenantId: 't', roles: ['poster'] } }]);
    const client = createLedgerClient('http://ledger.test', 'ldg_secret', { fetch: server.fetch });
    const { data } = await client.GET('/v1/api-keys/current');
    expect(data?.roles).toEqual(['poster']);
    expect(server.sent[0]!.url).toBe('http://ledger.test/v1/api-keys/current');
    expect(server.sent[0]!.headers.get('authorization')).toBe('Bearer ldg_secret');
  });

  it('retries a POST with its Idempotency-Key, the same key and body each time, until an answer', async () => {
    const server = scripted(['network-error', unavailable, inProgress, { status: 201, body: { id: 'tx' } }]);
    const client = createLedgerClient('http://ledger.test', 'k', { fetch: server.fetch, retryDelayMs: () => 0 });
    const { data, error } = await client.POST('/v1/transactions', {
      params: { header: { 'Idempotency-Key': 'order-7' } },
      body: transfer,
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: 'tx' });
    expect(server.sent.map((request) => request.headers.get('idempotency-key'))).toEqual(Array(4).fill('order-7'));
    expect(new Set(server.sent.map((request) => request.body))).toEqual(new Set([JSON.stringify(transfer)]));
  });

  it('gives the last answer after attemptsMax attempts, and never repeats a client error', async () => {
    const server = scripted([unavailable, unavailable]);
    const client = createLedgerClient('http://ledger.test', 'k', {
      fetch: server.fetch,
      attemptsMax: 2,
      retryDelayMs: () => 0,
    });
    const { error, response } = await client.GET('/v1/events');
    expect(response.status).toBe(503);
    expect(error?.error.code).toBe('UNAVAILABLE');
    expect(server.sent).toHaveLength(2);

    const refused = scripted([{ status: 422, body: { error: { code: 'UNBALANCED', message: 'no', details: {} } } }]);
    const again = createLedgerClient('http://ledger.test', 'k', { fetch: refused.fetch, retryDelayMs: () => 0 });
    const answer = await again.POST('/v1/transactions', {
      params: { header: { 'Idempotency-Key': 'order-8' } },
      body: transfer,
    });
    expect(answer.error?.error.code).toBe('UNBALANCED');
    expect(refused.sent).toHaveLength(1);
  });

  it('does not repeat a POST that has no Idempotency-Key, and throws its network error', async () => {
    const server = scripted(['network-error', { status: 201, body: {} }]);
    const client = createLedgerClient('http://ledger.test', 'k', { fetch: server.fetch, retryDelayMs: () => 0 });
    await expect(client.POST('/v1/tenants', { body: { name: 'Acme' } })).rejects.toThrow('fetch failed');
    expect(server.sent).toHaveLength(1);
  });

  it('waits as long as Retry-After says', async () => {
    const limited = { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'RATE_LIMITED' } } };
    const server = scripted([limited, { status: 200, body: { data: [], nextCursor: 'c' } }]);
    const client = createLedgerClient('http://ledger.test', 'k', { fetch: server.fetch, retryDelayMs: () => 0 });
    const started = Date.now();
    const { data } = await client.GET('/v1/events');
    expect(data?.nextCursor).toBe('c');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});
