import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectError,
  expectNothingWritten,
  expectValidationError,
  mustPost,
  postTransaction,
  setupTenant,
  transfer,
} from './support/ledger-fixtures';

const AMOUNT_MAX = '9223372036854775807';
const CODES = ['assets:cash', 'income:sales', 'assets:eur', 'income:eur', 'ovf:a', 'ovf:b'];

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

describe('bad requests: documented error and nothing written', () => {
  let tenant: TestTenant;
  let cashId: string;
  const refused = (act: () => Promise<void>) => expectNothingWritten(api, tenant, CODES, act);
  const post = (body: unknown, idempotencyKey?: string) => postTransaction(api, tenant.posterKey, body, idempotencyKey);

  beforeAll(async () => {
    tenant = await setupTenant(api, 'errors');
    cashId = (
      await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' })
    ).id;
    await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
    await createAccount(api, tenant.adminKey, { code: 'assets:eur', currency: 'EUR', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:eur', currency: 'EUR', normalBalance: 'credit' });
    await createAccount(api, tenant.adminKey, {
      code: 'ovf:a',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    await createAccount(api, tenant.adminKey, {
      code: 'ovf:b',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '10000'));
  });

  it('malformed JSON is 400 VALIDATION_FAILED', async () => {
    await refused(async () => {
      const response = await api.request('POST', '/v1/transactions', {
        key: tenant.posterKey,
        idempotencyKey: randomUUID(),
        body: '{"entries": [{"account": "assets:cash", "direction": "debit",',
      });
      expectError(response, 400, 'VALIDATION_FAILED');
    });
  });

  it.each([
    ['a JSON number', 100],
    ['a float string', '1.5'],
    ['a negative string', '-5'],
    ['zero', '0'],
    ['leading zeros', '0100'],
    ['an explicit plus sign', '+5'],
    ['an exponent', '1e3'],
    ['surrounding spaces', ' 5'],
    ['an empty string', ''],
    ['2^63 (one beyond the bigint maximum)', '9223372036854775808'],
    ['twenty digits', '99999999999999999999'],
    ['null', null],
  ])('an amount given as %s is 400 naming entries.0.amount', async (_label, amount) => {
    await refused(async () => {
      const response = await post({
        entries: [
          { account: 'assets:cash', direction: 'debit', amount, currency: 'USD' },
          { account: 'income:sales', direction: 'credit', amount: '100', currency: 'USD' },
        ],
      });
      expectValidationError(response, 'entries.0.amount');
    });
  });

  it.each(['ABC', 'usd', 'US', ''])('currency %j is 400 naming entries.N.currency', async (currency) => {
    await refused(async () => {
      const response = await post(transfer('assets:cash', 'income:sales', '100', currency));
      expectValidationError(response, 'entries.0.currency');
      expectValidationError(response, 'entries.1.currency');
    });
  });

  it('unbalanced entries are 422 UNBALANCED with the net per currency', async () => {
    await refused(async () => {
      const response = await post({
        entries: [
          { account: 'assets:cash', direction: 'debit', amount: '100', currency: 'USD' },
          { account: 'income:sales', direction: 'credit', amount: '99', currency: 'USD' },
        ],
      });
      expectError(response, 422, 'UNBALANCED');
      expect(response.body.error.details.currencies).toEqual([{ currency: 'USD', debitsMinusCredits: '1' }]);
    });
  });

  it('an unknown account is 404 ACCOUNT_NOT_FOUND naming it', async () => {
    await refused(async () => {
      const response = await post(transfer('assets:nope', 'income:sales', '100'));
      expectError(response, 404, 'ACCOUNT_NOT_FOUND');
      expect(response.body.error.details.accounts).toEqual(['assets:nope']);
      const byId = await post(transfer(randomUUID(), 'income:sales', '100'));
      expectError(byId, 404, 'ACCOUNT_NOT_FOUND');
    });
  });

  it('a leg in another currency than its account is 422 CURRENCY_MISMATCH', async () => {
    await refused(async () => {
      const response = await post(transfer('assets:cash', 'income:eur', '100', 'EUR'));
      expectError(response, 422, 'CURRENCY_MISMATCH');
      expect(response.body.error.details).toMatchObject({
        leg: 0,
        account: 'assets:cash',
        accountCurrency: 'USD',
        entryCurrency: 'EUR',
      });
    });
  });

  it('more than 100 legs is 400 naming entries', async () => {
    const entries = Array.from({ length: 101 }, (_, index) => ({
      account: `acct:${index}`,
      direction: index === 0 ? 'debit' : 'credit',
      amount: index === 0 ? '100' : '1',
      currency: 'USD',
    }));
    await refused(async () => expectValidationError(await post({ entries }), 'entries'));
  });

  it('a single leg, or none, is 400 naming entries', async () => {
    await refused(async () => {
      expectValidationError(
        await post({ entries: [{ account: 'assets:cash', direction: 'debit', amount: '1', currency: 'USD' }] }),
        'entries',
      );
      expectValidationError(await post({ entries: [] }), 'entries');
      expectValidationError(await post({}), 'entries');
    });
  });

  it('the same account twice is 400, by code and by id + code', async () => {
    await refused(async () => {
      const twice = {
        entries: [
          { account: 'assets:cash', direction: 'debit', amount: '5', currency: 'USD' },
          { account: 'assets:cash', direction: 'credit', amount: '5', currency: 'USD' },
        ],
      };
      expectError(await post(twice), 400, 'VALIDATION_FAILED');
      const mixed = { entries: [twice.entries[0], { ...twice.entries[1], account: cashId }] };
      expectError(await post(mixed), 400, 'VALIDATION_FAILED');
      const upper = {
        entries: [
          { ...twice.entries[0], account: cashId },
          { ...twice.entries[1], account: cashId.toUpperCase() },
        ],
      };
      expectError(await post(upper), 400, 'VALIDATION_FAILED');
    });
  });

  it('a body over 2 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify(
      transfer('assets:cash', 'income:sales', '1', 'USD', { description: 'x'.repeat(2 * 1024 * 1024 + 10) }),
    );
    await refused(async () => {
      expectError(
        await api.request('POST', '/v1/transactions', { key: tenant.posterKey, idempotencyKey: randomUUID(), body }),
        413,
        'PAYLOAD_TOO_LARGE',
      );
    });
  });

  it('a text/plain body is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    await refused(async () => {
      const response = await api.request('POST', '/v1/transactions', {
        key: tenant.posterKey,
        idempotencyKey: randomUUID(),
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(transfer('assets:cash', 'income:sales', '1')),
      });
      expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  it.each<[string, Record<string, string>]>([
    ['charset', { 'content-type': 'application/json; charset=latin1' }],
    ['content encoding', { 'content-type': 'application/json', 'content-encoding': 'compress' }],
  ])('an unsupported %s is 415 UNSUPPORTED_MEDIA_TYPE', async (_label, headers) => {
    const body = JSON.stringify(transfer('assets:cash', 'income:sales', '1'));
    await refused(async () => {
      const response = await api.request('POST', '/v1/transactions', {
        key: tenant.posterKey,
        idempotencyKey: randomUUID(),
        headers,
        body,
      });
      expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  it('an unknown top-level field or leg field is 400 and names it', async () => {
    await refused(async () => {
      const top = await post(transfer('assets:cash', 'income:sales', '1', 'USD', { sneaky: true }));
      expectError(top, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(top.body.error.details)).toContain('sneaky');
      const leg = await post({
        entries: [
          { account: 'assets:cash', direction: 'debit', amount: '1', currency: 'USD', memo: 'x' },
          { account: 'income:sales', direction: 'credit', amount: '1', currency: 'USD' },
        ],
      });
      expectError(leg, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(leg.body.error.details)).toContain('memo');
    });
  });

  it('other bad header fields are 400 naming them (externalRef, description, effectiveAt, direction)', async () => {
    await refused(async () => {
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { externalRef: 'r'.repeat(256) })),
        'externalRef',
      );
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { externalRef: '' })),
        'externalRef',
      );
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { description: 'd'.repeat(1001) })),
        'description',
      );
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { effectiveAt: 'yesterday' })),
        'effectiveAt',
      );
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { effectiveAt: '2026-01-01T00:00:00' })),
        'effectiveAt',
      );
      const sideways = transfer('assets:cash', 'income:sales', '1');
      expectValidationError(
        await post({ entries: [{ ...sideways.entries[0], direction: 'up' }, sideways.entries[1]] }),
        'entries.0.direction',
      );
    });
  });

  it('metadata too large, too deep, or with a too long key is 400 naming metadata', async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 10; level++) deep = { next: deep };
    await refused(async () => {
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { metadata: { blob: 'x'.repeat(9000) } })),
        'metadata',
      );
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { metadata: deep })),
        'metadata',
      );
      const response = await post(
        transfer('assets:cash', 'income:sales', '1', 'USD', { metadata: { ['k'.repeat(65)]: 1 } }),
      );
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.error.details.fields[0].path).toMatch(/^metadata/);
      expectValidationError(
        await post(transfer('assets:cash', 'income:sales', '1', 'USD', { metadata: ['not', 'an', 'object'] })),
        'metadata',
      );
    });
  });

  it('pathologically deep nesting (well under the size limit) is still a 400, not a crash', async () => {
    const depth = 20_000;
    const metadata = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const entries = JSON.stringify(transfer('assets:cash', 'income:sales', '1').entries);
    const body = `{"entries":${entries},"metadata":${metadata}}`;
    await refused(async () => {
      const response = await api.request('POST', '/v1/transactions', {
        key: tenant.posterKey,
        idempotencyKey: randomUUID(),
        body,
      });
      expectError(response, 400, 'VALIDATION_FAILED');
    });
  });

  it('a missing Idempotency-Key is 400 IDEMPOTENCY_KEY_MISSING; an empty or 256-character one is 400', async () => {
    await refused(async () => {
      const body = transfer('assets:cash', 'income:sales', '1');
      expectError(
        await api.request('POST', '/v1/transactions', { key: tenant.posterKey, body }),
        400,
        'IDEMPOTENCY_KEY_MISSING',
      );
      expectError(
        await api.request('POST', '/v1/accounts', {
          key: tenant.adminKey,
          body: { code: 'x:y', currency: 'USD', normalBalance: 'debit' },
        }),
        400,
        'IDEMPOTENCY_KEY_MISSING',
      );
      expectError(
        await api.request('POST', '/v1/api-keys', { key: tenant.adminKey, body: { name: 'k', roles: ['poster'] } }),
        400,
        'IDEMPOTENCY_KEY_MISSING',
      );
      expectValidationError(await post(body, 'k'.repeat(256)), 'Idempotency-Key');
      expectError(
        await api.request('POST', '/v1/transactions', {
          key: tenant.posterKey,
          body,
          headers: { 'idempotency-key': '' },
        }),
        400,
        'VALIDATION_FAILED',
      );
    });
    // The bound itself is allowed.
    expect((await post(transfer('assets:eur', 'income:eur', '1', 'EUR'), 'k'.repeat(255))).status).toBe(201);
  });

  it('a balance beyond 2^63-1 is 422 AMOUNT_OUT_OF_RANGE, and the first posting stays', async () => {
    const first = await post(transfer('ovf:a', 'ovf:b', AMOUNT_MAX));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await refused(async () => {
      expectError(await post(transfer('ovf:a', 'ovf:b', AMOUNT_MAX)), 422, 'AMOUNT_OUT_OF_RANGE');
      expectError(await post(transfer('ovf:a', 'ovf:b', '1')), 422, 'AMOUNT_OUT_OF_RANGE');
    });
    const a = await api.request('GET', '/v1/accounts/ovf:a', { key: tenant.posterKey });
    expect(a.body.balances.posted).toBe(AMOUNT_MAX);
    expect(a.body.version).toBe('1');
  });

  it('taking a constrained account below zero is 422 INSUFFICIENT_FUNDS with details', async () => {
    await createAccount(api, tenant.adminKey, { code: 'expenses:any', currency: 'USD', normalBalance: 'debit' });
    const available = BigInt(
      (await api.request('GET', '/v1/accounts/assets:cash', { key: tenant.posterKey })).body.balances.available,
    );
    expect(available > 0n).toBe(true);
    await refused(async () => {
      // The debited expense account only grows; the credited cash account is the one that runs short.
      const response = await post(transfer('expenses:any', 'assets:cash', (available + 1n).toString()));
      expectError(response, 422, 'INSUFFICIENT_FUNDS');
      expect(response.body.error.details).toEqual({
        account: 'assets:cash',
        availableMinor: available.toString(),
        requiredMinor: (available + 1n).toString(),
        currency: 'USD',
      });
    });
  });

  it('a duplicate account code is 409 ACCOUNT_CODE_CONFLICT', async () => {
    await refused(async () => {
      const response = await api.request('POST', '/v1/accounts', {
        key: tenant.adminKey,
        idempotencyKey: randomUUID(),
        body: { code: 'assets:cash', currency: 'EUR', normalBalance: 'credit' },
      });
      expectError(response, 409, 'ACCOUNT_CODE_CONFLICT');
    });
  });

  it('bad account bodies are 400 naming the field', async () => {
    const create = (body: unknown) =>
      api.request('POST', '/v1/accounts', { key: tenant.adminKey, idempotencyKey: randomUUID(), body });
    await refused(async () => {
      expectValidationError(await create({ code: 'has space', currency: 'USD', normalBalance: 'debit' }), 'code');
      expectValidationError(await create({ code: randomUUID(), currency: 'USD', normalBalance: 'debit' }), 'code');
      expectValidationError(await create({ code: 'ok:code', currency: 'XYZ', normalBalance: 'debit' }), 'currency');
      expectValidationError(await create({ code: 'ok:code', currency: 'USD', normalBalance: 'both' }), 'normalBalance');
      expectValidationError(
        await create({ code: 'ok:code', currency: 'USD', normalBalance: 'debit', allowNegative: 'yes' }),
        'allowNegative',
      );
      expectValidationError(await create({ code: 'ok:code', currency: 'USD' }), 'normalBalance');
    });
  });

  it('bad list queries are 400; unknown ids and routes are 404 NOT_FOUND', async () => {
    const get = (path: string) => api.request('GET', path, { key: tenant.posterKey });
    expectValidationError(await get('/v1/transactions?limit=0'), 'limit');
    expectValidationError(await get('/v1/transactions?limit=100000'), 'limit');
    expectValidationError(await get('/v1/transactions?cursor=%21%21garbage'), 'cursor');
    expectValidationError(await get('/v1/accounts/assets:cash/entries?cursor=bm90LWEtdmVyc2lvbg'), 'cursor');
    expectValidationError(await get('/v1/events?after=garbage'), 'after');
    expectError(await get('/v1/transactions/not-a-uuid'), 404, 'NOT_FOUND');
    expectError(await get(`/v1/transactions/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await get('/v1/accounts/assets:nope'), 404, 'NOT_FOUND');
    expectError(await get('/v1/no-such-route'), 404, 'NOT_FOUND');
    expectError(await api.request('GET', '/no-such-route'), 404, 'NOT_FOUND');
    expectError(
      await api.request('POST', '/v1/no-such-route', { key: tenant.posterKey, idempotencyKey: randomUUID(), body: {} }),
      404,
      'NOT_FOUND',
    );
  });
});
