import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import { itWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../libs/imports/test/statement-samples';
import { createSource, runReconciliation } from './support/reconciliation-fixtures';

// Hostile input over the API: random JSON, amounts at and past 2^63, control and unpaired unicode
// characters, huge and deep bodies, duplicate keys, wrong content types. Each gets a clear 4xx with
// the error shape, and leaves the books as they were. (A refused POST's idempotency key keeps the
// refusal so that a retry is answered the same: that row is the contract, not a trace in the books.)

let api: ApiHarness;
let tenant: TestTenant;
let financeKey: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await seededTenant(api, 'hostile');
  await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
  financeKey = await createApiKey(api, tenant.adminKey, ['finance']);
});
afterAll(async () => {
  await api?.close();
});

/** Row counts of everything a request could have written to the books. */
async function books(): Promise<Record<string, string>> {
  const [counts] = await sqlRows<Record<string, string>>(
    api,
    `SELECT (SELECT count(*) FROM transactions)::text AS transactions, (SELECT count(*) FROM entries)::text AS entries,
            (SELECT count(*) FROM accounts)::text AS accounts, (SELECT count(*) FROM outbox_events)::text AS events,
            (SELECT count(*) FROM statement_lines)::text AS lines, (SELECT count(*) FROM matching_rules)::text AS rules,
            (SELECT count(*) FROM owner_routes)::text AS routes,
            (SELECT sum(posted_debits + posted_credits + pending_debits + pending_credits) FROM accounts)::text
              AS volume`,
  );
  return counts!;
}

/** Sends a raw body; answers the status and parsed error body. */
async function send(
  method: string,
  path: string,
  body: string | Buffer,
  contentType: string | null = 'application/json',
  key = tenant.posterKey,
) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() };
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(`${api.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, text };
}

function expectRefused(answer: { status: number; text: string }, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  const body = JSON.parse(answer.text) as { error: { code: string; message: string } };
  expect(body.error.code).toMatch(/^[A-Z_]+$/);
  expect(body.error.message.length).toBeGreaterThan(0);
}

const ENDPOINTS: { method: string; path: string; key: () => string }[] = [
  { method: 'POST', path: '/v1/transactions', key: () => tenant.posterKey },
  { method: 'POST', path: '/v1/transactions/batch', key: () => tenant.posterKey },
  { method: 'POST', path: '/v1/accounts', key: () => tenant.adminKey },
  { method: 'PUT', path: '/v1/matching-rules', key: () => financeKey },
  { method: 'POST', path: '/v1/owner-routes', key: () => financeKey },
  { method: 'POST', path: '/v1/matches', key: () => financeKey },
];

describe('hostile input', () => {
  it('random JSON on every writing endpoint: a 4xx, and the books unchanged', async () => {
    const before = await books();
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.jsonValue({ maxDepth: 4 }), async (endpoint, value) => {
        tried += 1;
        expectRefused(
          await send(endpoint.method, endpoint.path, JSON.stringify(value), 'application/json', endpoint.key()),
          `${endpoint.path} ${JSON.stringify(value).slice(0, 200)}`,
        );
      }),
      { numRuns: 120 },
    );
    expect(tried).toBe(120);
    expect(await books()).toEqual(before);
  });

  it('postings built to break amounts, text and sizes: a 4xx each, and the books unchanged', async () => {
    const before = await books();
    const amounts: unknown[] = [
      '9223372036854775808',
      '18446744073709551616',
      '-1',
      '0',
      '1.5',
      '1e3',
      ' 1',
      '+1',
      '0x10',
      '١٢٣',
      '',
      1,
      null,
      '9'.repeat(400),
    ];
    const bodies: [string, unknown][] = amounts.map((amount) => [
      `amount ${JSON.stringify(amount)}`,
      { entries: transfer('equity:seed', 'wallet', 'X').entries.map((leg) => ({ ...leg, amount })) },
    ]);
    const valid = transfer('equity:seed', 'wallet', '5');
    bodies.push(
      ['NUL in description', { ...valid, description: 'a\u0000b' }],
      ['NUL in a metadata key', { ...valid, metadata: { 'a\u0000': 'x' } }],
      ['unpaired surrogate', { ...valid, description: 'x\ud800y' }],
      ['description of 100,000 characters', { ...valid, description: '€'.repeat(100_000) }],
      [
        'metadata of 5,000 keys',
        { ...valid, metadata: Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, 'v'])) },
      ],
      ['metadata nested 40 deep', { ...valid, metadata: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }],
      ['externalRef of control characters', { ...valid, externalRef: '\u0001\u0002\u0003' }],
      ['unknown currency', transfer('equity:seed', 'wallet', '5', 'XXX1')],
      [
        '1001 entries',
        {
          entries: Array.from({ length: 1001 }, (_, index) => ({
            account: index % 2 ? 'wallet' : 'equity:seed',
            direction: index % 2 ? 'credit' : 'debit',
            amount: '1',
            currency: 'USD',
          })),
        },
      ],
      ['effectiveAt in year 275760', { ...valid, effectiveAt: '+275760-09-13T00:00:00.000Z' }],
      [
        'prototype keys',
        JSON.parse(
          `{"entries": ${JSON.stringify(valid.entries)}, ` +
            '"__proto__": {"admin": true}, "constructor": {"prototype": {}}}',
        ),
      ],
    );
    for (const [what, body] of bodies)
      expectRefused(await send('POST', '/v1/transactions', JSON.stringify(body)), what);

    const raw: [string, string | Buffer, string | null][] = [
      ['duplicate key', `{"entries": ${JSON.stringify(valid.entries)}, "entries": []}`, 'application/json'],
      [
        'duplicate amount inside an entry',
        '{"entries": [{"account":"equity:seed","direction":"debit","amount":"5","amount":"5000","currency":"USD"},' +
          '{"account":"wallet","direction":"credit","amount":"5","currency":"USD"}]}',
        'application/json',
      ],
      ['nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json'],
      ['a JSON string, not an object', '"entries"', 'application/json'],
      ['truncated JSON', JSON.stringify(valid).slice(0, 30), 'application/json'],
      [
        'invalid UTF-8',
        Buffer.concat([
          Buffer.from('{"description":"'),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from('","entries":[]}'),
        ]),
        'application/json',
      ],
      ['text/plain', JSON.stringify(valid), 'text/plain'],
      ['form encoded', 'entries=1', 'application/x-www-form-urlencoded'],
      ['no content type', JSON.stringify(valid), null],
      ['JSON in latin1 charset', JSON.stringify(valid), 'application/json; charset=latin1'],
      ['3 MB body', JSON.stringify({ ...valid, description: 'x'.repeat(3 * 1024 * 1024) }), 'application/json'],
    ];
    for (const [what, body, type] of raw) expectRefused(await send('POST', '/v1/transactions', body, type), what);
    expect(await books()).toEqual(before);
  });

  itWithStatementSamples('mutated statement files: imported whole or refused whole, never in part', async () => {
    const samples: [string, string, string][] = [
      ['bank-camt', 'camt053', 'camt/camt053.v8.xml'],
      ['bank-mt940', 'mt940', 'mt940/betterplace/sepa_mt9401.sta'],
      ['bank-bai2', 'bai2', 'bai2/nwb_example.bai2'],
    ];
    let tried = 0;
    let refused = 0;
    for (const [source, format, sample] of samples) {
      await createAccount(api, tenant.adminKey, {
        code: `assets:${source}`,
        currency: 'EUR',
        normalBalance: 'debit',
        allowNegative: true,
      });
      await createSource(api, financeKey, { name: source, account: `assets:${source}`, format });
      const original = await readFile(resolve(STATEMENT_SAMPLES_DIR, sample));
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), async (cut, at, byte) => {
          const mutated = Buffer.from(original.subarray(0, Math.max(1, cut % (original.length + 1))));
          mutated[at % mutated.length] = byte;
          const [{ lines: before }] = await sqlRows<{ lines: string }>(
            api,
            'SELECT count(*)::text AS lines FROM statement_lines',
          );
          const form = new FormData();
          form.set('file', new Blob([mutated]), 'mutated');
          form.set('source', source);
          const response = await fetch(`${api.baseUrl}/v1/imports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID() },
            body: form,
          });
          tried += 1;
          expect(response.status, await response.clone().text()).toBeLessThan(500);
          if (response.status !== 201) {
            refused += 1;
            const [{ lines: after }] = await sqlRows<{ lines: string }>(
              api,
              'SELECT count(*)::text AS lines FROM statement_lines',
            );
            expect(after).toBe(before);
          }
        }),
        { numRuns: 25 },
      );
    }
    expect(tried).toBe(25 * samples.length);
    expect(refused).toBeGreaterThan(0);
  });

  it('SQL in every text that reaches a query is data: no error, nothing found, the books unchanged', async () => {
    const before = await books();
    const [{ last }] = await sqlRows<{ last: string }>(
      api,
      'SELECT coalesce(max(position), 0)::text AS last FROM outbox_events',
    );
    const payloads = [
      `'; DROP TABLE entries; --`,
      `x' OR '1'='1`,
      `%' OR 1=1 --`,
      `$1`,
      `\\'); SELECT pg_sleep(5); --`,
      `"}'::jsonb @> '{}`,
    ];
    const read = (path: string, key = tenant.posterKey) => api.request('GET', path, { key });
    for (const payload of payloads) {
      const text = encodeURIComponent(payload);
      const metadata = encodeURIComponent(JSON.stringify({ [payload]: payload }));
      for (const path of [
        `/v1/transactions?account=${text}`,
        `/v1/transactions?externalRef=${text}`,
        `/v1/transactions?metadata=${metadata}`,
        `/v1/accounts?codePrefix=${text}`,
        `/v1/accounts?metadata=${metadata}`,
      ]) {
        // Found nothing, or (a filter naming an account) no such account.
        const answer = await read(path);
        expect([200, 404], `${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
        if (answer.status === 200) expect(answer.body.data, path).toEqual([]);
      }
      const account = await read(`/v1/accounts/${text}`);
      expect(account.status, JSON.stringify(account.body)).toBe(404);
      const line = await read(`/v1/statement-lines/${text}`, financeKey);
      expect([400, 404], JSON.stringify(line.body)).toContain(line.status);
    }
    const rules = await api.request('PUT', '/v1/matching-rules', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body: {
        rules: [
          { type: 'reference', source: payloads[0] },
          { type: 'amount_date', windowDays: 1, source: payloads[1] },
        ],
      },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    await runReconciliation(api, financeKey);
    await api.request('PUT', '/v1/matching-rules', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body: { rules: [] },
    });
    // The run's own events are the only new rows: its record, and the tickets of whatever lines the
    // mutated statements above happened to import (how many depends on fast-check's seed).
    const after = await books();
    expect({ ...after, events: before.events }).toEqual(before);
    const added = await sqlRows<{ aggregate_type: string }>(
      api,
      'SELECT aggregate_type FROM outbox_events WHERE position > $1::int8',
      [last],
    );
    expect(added.length).toBe(Number(after.events) - Number(before.events));
    expect(added.filter((event) => event.aggregate_type === 'reconciliation_run')).toHaveLength(1);
    expect(added.filter((event) => !['reconciliation_run', 'discrepancy'].includes(event.aggregate_type))).toEqual([]);
  });

  it('the same malformed body with the same key is refused the same way (the refusal is what is kept)', async () => {
    const key = randomUUID();
    const post = () =>
      api.request('POST', '/v1/transactions', { key: tenant.posterKey, idempotencyKey: key, body: { entries: [] } });
    const first = await post();
    const second = await post();
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.body).toEqual(first.body);
  });
});
