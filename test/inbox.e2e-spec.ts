import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectError,
  getAccount,
  getTransaction,
  postWithKey,
  setupTenant,
  sqlRows,
} from './support/ledger-fixtures';

let api: ApiHarness;
let tenant: TestTenant;
let source: { id: string; secret: string; endpoint: string };

const gatewayEntries = (debit: string, credit: string) => [
  { account: debit, direction: 'debit', amount: '$.data.amount', currency: '$.data.currency' },
  { account: credit, direction: 'credit', amount: '$.data.amount', currency: '$.data.currency' },
];

beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'inbox');
  await createAccount(api, tenant.adminKey, { code: 'assets:gateway', currency: 'EUR', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, { code: 'assets:bank', currency: 'EUR', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, { code: 'revenue:sales', currency: 'EUR', normalBalance: 'credit' });
  const created = await postWithKey(api, tenant.adminKey, '/v1/inbound-sources', {
    name: 'psp',
    mappings: {
      'payment.succeeded': {
        description: 'card payment',
        externalRef: '$.data.payment',
        entries: gatewayEntries('assets:gateway', 'revenue:sales'),
      },
      'payment.refunded': {
        description: 'refund',
        externalRef: '$.data.refund',
        entries: gatewayEntries('revenue:sales', 'assets:gateway'),
      },
      'payout.paid': {
        description: 'payout',
        externalRef: '$.data.payout',
        entries: gatewayEntries('assets:bank', 'assets:gateway'),
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  source = created.body;
});

afterAll(async () => {
  await api?.close();
});

/** What the gateway does: sign `t.body` with the shared secret. */
function sign(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function send(
  message: object,
  options: { secret?: string; signature?: string; path?: string } = {},
): Promise<ApiResponse> {
  const body = JSON.stringify(message);
  const signature = options.signature ?? sign(body, options.secret ?? source.secret);
  return api.request('POST', options.path ?? source.endpoint, { body, headers: { 'ledger-signature': signature } });
}

function payment(amount: number) {
  return {
    id: `evt_${randomUUID()}`,
    type: 'payment.succeeded',
    data: { payment: `pay_${randomUUID()}`, amount, currency: 'EUR' },
  };
}

describe('inbox', () => {
  it('turns a signed payment message into a posting by the mapping; the same message again posts nothing', async () => {
    const message = payment(1250);
    const first = await send(message);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      messageId: message.id,
      status: 'posted',
      transactionId: expect.any(String),
      duplicate: false,
    });
    const transaction = await getTransaction(api, tenant.posterKey, first.body.transactionId);
    expect(transaction).toMatchObject({
      externalRef: message.data.payment,
      description: 'card payment',
      metadata: { inbound: { source: 'psp', messageId: message.id } },
    });
    const balance = (await getAccount(api, tenant.posterKey, 'revenue:sales')).balances.posted;

    const again = await send(message);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      messageId: message.id,
      status: 'posted',
      transactionId: first.body.transactionId,
      duplicate: true,
    });
    expect((await getAccount(api, tenant.posterKey, 'revenue:sales')).balances.posted).toBe(balance);
    const rows = await sqlRows<{ n: number }>(
      api,
      `SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1 AND external_ref = $2`,
      [tenant.tenantId, message.data.payment],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('copies of one message arriving at once post once', async () => {
    const message = payment(300);
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(message)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(answers.filter((answer) => !answer.body.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(1);
  });

  it('a message whose posting fails leaves no inbox row: the gateway retry is processed afresh', async () => {
    const refund = {
      id: `evt_${randomUUID()}`,
      type: 'payment.refunded',
      data: { refund: `re_${randomUUID()}`, amount: 10_000_000, currency: 'EUR' },
    };
    expectError(await send(refund), 422, 'INSUFFICIENT_FUNDS');
    expect(await sqlRows(api, `SELECT 1 FROM inbox_messages WHERE message_id = $1`, [refund.id])).toEqual([]);
    expect((await send(payment(10_000_000))).body.status).toBe('posted');
    const retried = await send(refund);
    expect(retried.body).toMatchObject({ status: 'posted', duplicate: false });
    const payout = await send({
      id: `evt_${randomUUID()}`,
      type: 'payout.paid',
      data: { payout: `po_${randomUUID()}`, amount: 1000, currency: 'EUR' },
    });
    expect(payout.body).toMatchObject({ status: 'posted' });
    expect((await getAccount(api, tenant.posterKey, 'assets:bank')).balances.posted).toBe('1000');
  });

  it('records an unmapped message type as ignored, once', async () => {
    const message = { id: `evt_${randomUUID()}`, type: 'customer.updated', data: { customer: 'cus_1' } };
    expect((await send(message)).body).toEqual({
      messageId: message.id,
      status: 'ignored',
      transactionId: null,
      duplicate: false,
    });
    expect((await send(message)).body).toEqual({
      messageId: message.id,
      status: 'ignored',
      transactionId: null,
      duplicate: true,
    });
  });

  it('refuses a message with no valid signature, from an unknown source, or not fitting its mapping', async () => {
    const message = payment(100);
    expectError(await send(message, { secret: 'whsec_not_the_right_secret_at_all_0000' }), 401, 'UNAUTHENTICATED');
    expectError(
      await send(message, {
        signature: sign(JSON.stringify(message), source.secret, Math.floor(Date.now() / 1000) - 3600),
      }),
      401,
      'UNAUTHENTICATED',
    );
    expectError(await api.request('POST', source.endpoint, { body: message }), 401, 'UNAUTHENTICATED');
    expectError(await send(message, { path: `/v1/inbound/${randomUUID()}` }), 404, 'NOT_FOUND');
    expectError(
      await send({ ...message, data: { payment: 'pay_x', amount: 1.5, currency: 'EUR' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await sqlRows(api, `SELECT 1 FROM inbox_messages WHERE message_id = $1`, [message.id])).toEqual([]);
  });
});

describe('inbound: the signature is checked over the raw body, before any JSON parsing', () => {
  const post = async (path: string, body: string | Buffer, signature: string | undefined) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== undefined) headers['ledger-signature'] = signature;
    const response = await fetch(`${api.baseUrl}${path}`, { method: 'POST', headers, body });
    return { status: response.status, body: (await response.json()) as any };
  };
  // Not JSON at all: a parser that ran first would answer 400.
  const garbage = '{"id": "evt_1", "type": ';

  it('an unknown source is 404 and a bad signature 401, whatever the body holds', async () => {
    const unknown = await post(`/v1/inbound/${randomUUID()}`, garbage, sign(garbage, source.secret));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const forged = await post(source.endpoint, garbage, sign(garbage, 'not the secret'));
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('UNAUTHENTICATED');
    expect((await post(source.endpoint, garbage, undefined)).status).toBe(401);
  });

  it('a signed body is parsed by the usual rules: bad JSON, a key twice, a NUL, bytes not UTF-8 are 400', async () => {
    const valid = JSON.stringify(payment(100));
    const duplicate = valid.replace('{"id":', '{"type":"x","id":');
    const withNul = JSON.stringify({ ...payment(100), data: { note: 'a\u0000b' } });
    const notUtf8 = Buffer.concat([
      Buffer.from('{"id":"evt_'),
      Buffer.from([0xff]),
      Buffer.from('","type":"t","data":{}}'),
    ]);
    for (const [body, field] of [
      [garbage, 'body'],
      [duplicate, 'body'],
      [withNul, 'data.note'],
      [notUtf8, 'id'],
    ] as const) {
      const answer = await post(source.endpoint, body, sign(body.toString(), source.secret));
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(answer.body.error.details.fields.map((entry: { path: string }) => entry.path)).toContain(field);
    }
  });

  it('a body over the inbound limit (64 KiB by default) is 413, however it is signed', async () => {
    const big = JSON.stringify({ ...payment(100), data: { padding: 'x'.repeat(70 * 1024) } });
    const answer = await post(source.endpoint, big, sign(big, source.secret));
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
