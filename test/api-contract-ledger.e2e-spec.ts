import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiContract, contractCaller } from './support/api-contract';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import { transfer } from './support/ledger-fixtures';
import { webhookQueueOf } from './support/relay-fixtures';

// The ledger's routes driven for real, every answer checked against the committed OpenAPI document
// (status documented for the route, body valid against that status's schema): see support/api-contract.

let api: ApiHarness;
let call: ReturnType<typeof contractCaller>;
const contract = new ApiContract();
const ALL_ROLES = ['admin', 'poster', 'finance', 'auditor'];

beforeAll(async () => {
  api = await startApi({ settings: { LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  call = contractCaller(api, contract);
});
afterAll(async () => {
  await api?.close();
});

const once = () => ({ idempotencyKey: randomUUID() });

describe('the ledger answers as its OpenAPI document says', () => {
  let admin: string;
  let poster: string;
  const alice = 'liabilities:wallets:alice';
  const bob = 'liabilities:wallets:bob';
  const cash = 'assets:cash';

  beforeAll(async () => {
    const tenant = await call('POST', '/v1/tenants', { key: TEST_OPERATOR_TOKEN, body: { name: 'contract' } });
    expect(tenant.status).toBe(201);
    admin = tenant.body.apiKey;
    const key = await call('POST', '/v1/api-keys', { key: admin, ...once(), body: { name: 'all', roles: ALL_ROLES } });
    expect(key.status).toBe(201);
    poster = key.body.key;
  });

  it('tenants, keys and the audit log', async () => {
    expect((await call('POST', '/v1/tenants', { body: { name: 'x' } })).status).toBe(401);
    expect((await call('GET', '/v1/api-keys/current', { key: poster })).body.roles).toEqual(ALL_ROLES);
    const created = await call('POST', '/v1/api-keys', {
      key: admin,
      ...once(),
      body: { name: 'p', roles: ['poster'] },
    });
    expect((await call('POST', '/v1/accounts', { key: created.body.key, ...once(), body: {} })).status).toBe(403);
    expect((await call('GET', '/v1/audit-log', { key: admin, query: { action: 'api_key.create' } })).status).toBe(200);
  });

  it('accounts: create, read, list, balance, entries, and their refusals', async () => {
    for (const [code, normalBalance, allowNegative] of [
      [alice, 'credit', false],
      [bob, 'credit', false],
      [cash, 'debit', true],
    ] as const) {
      const body = { code, currency: 'USD', normalBalance, allowNegative, metadata: { owner: code } };
      expect((await call('POST', '/v1/accounts', { key: admin, ...once(), body })).status).toBe(201);
    }
    const again = await call('POST', '/v1/accounts', {
      key: admin,
      ...once(),
      body: { code: alice, currency: 'USD', normalBalance: 'credit' },
    });
    expect(again.body.error.code).toBe('ACCOUNT_CODE_CONFLICT');
    const invalid = await call('POST', '/v1/accounts', { key: admin, ...once(), body: { code: '', currency: 'XXQ' } });
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    await call('POST', '/v1/transactions', { key: poster, ...once(), body: transfer(cash, alice, '5000') });
    const account = await call('GET', '/v1/accounts/{account}', { key: poster, path: { account: alice } });
    expect(account.body.balances).toEqual({ posted: '5000', pending: '0', available: '5000' });
    expect((await call('GET', '/v1/accounts/{account}', { key: poster, path: { account: 'nope' } })).status).toBe(404);
    const list = await call('GET', '/v1/accounts', { key: poster, query: { codePrefix: 'liabilities:', limit: '1' } });
    expect(list.body.nextCursor).not.toBeNull();
    const asOf = new Date().toISOString();
    const balance = await call('GET', '/v1/accounts/{account}/balance', {
      key: poster,
      path: { account: cash },
      query: { asOf },
    });
    expect(balance.body.posted).toBe('5000');
    const entries = await call('GET', '/v1/accounts/{account}/entries', { key: poster, path: { account: alice } });
    expect(entries.body.data[0].postedBalance).toBe('5000');
    expect((await call('GET', '/v1/accounts', { key: poster, query: { limit: 'many' } })).status).toBe(400);
  });

  it('transactions: post, replay, existing, refusals, read and list', async () => {
    const idempotencyKey = randomUUID();
    const body = transfer(alice, bob, '1500', 'USD', { externalRef: 'order-1', metadata: { order: 1 } });
    const posted = await call('POST', '/v1/transactions', { key: poster, idempotencyKey, body });
    expect(posted.status).toBe(201);
    const replay = await call('POST', '/v1/transactions', { key: poster, idempotencyKey, body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const existing = await call('POST', '/v1/transactions', { key: poster, ...once(), body });
    expect(existing.headers.get('ledger-existing')).toBe('true');
    const reused = await call('POST', '/v1/transactions', {
      key: poster,
      idempotencyKey,
      body: transfer(alice, bob, '1'),
    });
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const conflict = await call('POST', '/v1/transactions', {
      key: poster,
      ...once(),
      body: { ...body, description: 'x' },
    });
    expect(conflict.body.error.code).toBe('EXTERNAL_REF_CONFLICT');
    const poor = await call('POST', '/v1/transactions', {
      key: poster,
      ...once(),
      body: transfer(bob, alice, '99999'),
    });
    expect(poor.body.error.code).toBe('INSUFFICIENT_FUNDS');
    const unbalanced = { entries: [transfer(alice, bob, '1').entries[0], transfer(alice, bob, '2').entries[1]] };
    expect((await call('POST', '/v1/transactions', { key: poster, ...once(), body: unbalanced })).status).toBe(422);
    const unknown = await call('POST', '/v1/transactions', { key: poster, ...once(), body: transfer('x:y', bob, '1') });
    expect(unknown.body.error.code).toBe('ACCOUNT_NOT_FOUND');
    const euro = await call('POST', '/v1/transactions', {
      key: poster,
      ...once(),
      body: transfer(alice, bob, '1', 'EUR'),
    });
    expect(euro.body.error.code).toBe('CURRENCY_MISMATCH');
    expect((await call('POST', '/v1/transactions', { key: poster, body })).body.error.code).toBe(
      'IDEMPOTENCY_KEY_MISSING',
    );
    const numeric = { entries: [{ account: alice, direction: 'debit', amount: 5, currency: 'USD' }] };
    expect((await call('POST', '/v1/transactions', { key: poster, ...once(), body: numeric })).status).toBe(400);
    const read = await call('GET', '/v1/transactions/{id}', { key: poster, path: { id: posted.body.id } });
    expect(read.body.entries).toHaveLength(2);
    expect((await call('GET', '/v1/transactions/{id}', { key: poster, path: { id: randomUUID() } })).status).toBe(404);
    const list = await call('GET', '/v1/transactions', {
      key: poster,
      query: { account: alice, metadata: '{"order":1}', from: '2020-01-01T00:00:00Z' },
    });
    expect(list.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([posted.body.id]);
  });

  it('batches, holds and reversals', async () => {
    const batch = await call('POST', '/v1/transactions/batch', {
      key: poster,
      ...once(),
      body: { transactions: [transfer(alice, bob, '100'), transfer(alice, bob, '0'), transfer(bob, alice, '999999')] },
    });
    expect(batch.body.results.map((result: { status: string }) => result.status)).toEqual([
      'created',
      'error',
      'error',
    ]);
    const hold = (amount: string) => ({
      ...transfer(alice, bob, amount),
      pending: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const first = await call('POST', '/v1/transactions', { key: poster, ...once(), body: hold('300') });
    expect(first.body.status, JSON.stringify(first.body)).toBe('pending');
    const path = { id: first.body.id };
    expect((await call('POST', '/v1/transactions/{id}/post', { key: poster, ...once(), path, body: {} })).status).toBe(
      201,
    );
    const twice = await call('POST', '/v1/transactions/{id}/void', { key: poster, ...once(), path });
    expect(twice.body.error.code).toBe('HOLD_ALREADY_RESOLVED');
    const second = await call('POST', '/v1/transactions', { key: poster, ...once(), body: hold('200') });
    const voided = await call('POST', '/v1/transactions/{id}/void', {
      key: poster,
      ...once(),
      path: { id: second.body.id },
    });
    expect(voided.body.status).toBe('voided');
    const plain = batch.body.results[0].transaction.id;
    const notHold = await call('POST', '/v1/transactions/{id}/post', { key: poster, ...once(), path: { id: plain } });
    expect(notHold.body.error.code).toBe('NOT_A_HOLD');
    const reversal = await call('POST', '/v1/transactions/{id}/reverse', {
      key: poster,
      ...once(),
      path: { id: plain },
      body: { description: 'refund' },
    });
    expect(reversal.body.reversesId).toBe(plain);
    const again = await call('POST', '/v1/transactions/{id}/reverse', { key: poster, ...once(), path: { id: plain } });
    expect(again.body.error.code).toBe('ALREADY_REVERSED');
    const back = await call('POST', '/v1/transactions/{id}/reverse', {
      key: poster,
      ...once(),
      path: { id: reversal.body.id },
    });
    expect(back.body.error.code).toBe('NOT_REVERSIBLE');
  });

  it('events and webhooks', async () => {
    const events = await call('GET', '/v1/events', { key: poster, query: { limit: '500' } });
    expect(events.body.data.length).toBeGreaterThan(0);
    const after = await call('GET', '/v1/events', { key: poster, query: { after: events.body.nextCursor } });
    expect(after.body.data).toEqual([]);
    const body = { url: 'http://127.0.0.1:9/ledger-events', events: ['transaction.posted'] };
    const webhook = await call('POST', '/v1/webhooks', { key: admin, ...once(), body });
    const path = { id: webhook.body.id };
    await call('POST', '/v1/transactions', { key: poster, ...once(), body: transfer(alice, bob, '1') });
    await webhookQueueOf(api).execute();
    expect((await call('GET', '/v1/webhooks', { key: admin })).body.data).toHaveLength(1);
    const deliveries = await call('GET', '/v1/webhooks/{id}/deliveries', {
      key: admin,
      path,
      query: { status: 'pending' },
    });
    expect(deliveries.body.data.length).toBeGreaterThan(0);
    const deliveryPath = { ...path, deliveryId: deliveries.body.data[0].id };
    const redelivered = await call('POST', '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      key: admin,
      ...once(),
      path: deliveryPath,
    });
    expect(redelivered.body.status).toBe('pending');
    const rotated = await call('POST', '/v1/webhooks/{id}/rotate-secret', { key: admin, ...once(), path });
    expect(rotated.body.previousSecretExpiresAt).not.toBeNull();
    expect((await call('DELETE', '/v1/webhooks/{id}', { key: admin, path })).status).toBe(204);
    expect((await call('DELETE', '/v1/webhooks/{id}', { key: admin, path })).status).toBe(404);
    const refused = await call('POST', '/v1/webhooks', { key: admin, ...once(), body: { url: 'ftp://x', events: [] } });
    expect(refused.status).toBe(400);
  });

  it('what no route handles well: no key, wrong media type, a body too large', async () => {
    expect((await call('GET', '/v1/transactions', {})).status).toBe(401);
    expect((await call('GET', '/v1/transactions', { key: 'ldg_not-a-key' })).status).toBe(401);
    const text = await call('POST', '/v1/transactions', {
      key: poster,
      ...once(),
      body: 'entries=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const large = { ...transfer(alice, bob, '1'), description: 'x'.repeat(3 * 1024 * 1024) };
    expect((await call('POST', '/v1/transactions', { key: poster, ...once(), body: large })).status).toBe(413);
  });

  it('health and the proof key are public, metrics for the operator token', async () => {
    expect((await call('GET', '/health')).body.database).toBe('up');
    expect((await call('GET', '/metrics')).status).toBe(401);
    expect((await call('GET', '/metrics', { key: TEST_OPERATOR_TOKEN })).body).toContain('# HELP');
    expect((await call('GET', '/v1/proofs/key')).body.algorithm).toBe('Ed25519');
  });
});
