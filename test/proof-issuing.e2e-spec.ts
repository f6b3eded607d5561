import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import {
  type TestTenant,
  createApiKey,
  expectError,
  mustPost,
  seededTenant,
  sqlRows,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';

const PER_MINUTE_MAX = 4;

/** Balance proofs are issued by POST, kept, and reused while the journal stands still; GET only reads. */
function proofIssuing(embedded: boolean) {
  let api: ApiHarness;
  let tenant: TestTenant;
  let auditor: string;

  beforeAll(async () => {
    api = await startApi({ embedded, settings: { LEDGER_PROOFS_PER_MINUTE_MAX: String(PER_MINUTE_MAX) } });
    tenant = await seededTenant(api, 'proof issuing');
    auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const stored = async () =>
    (
      await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM balance_proofs WHERE tenant_id = $1', [
        tenant.tenantId,
      ])
    )[0]!.n;
  const issue = (body: object = {}): Promise<ApiResponse> =>
    api.request('POST', '/v1/proofs/balances', { key: auditor, idempotencyKey: randomUUID(), body });
  const latest = () => api.request('GET', '/v1/proofs/balances', { key: auditor });
  async function postOne(): Promise<void> {
    const { wallet } = await walletAndShop(api, tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '5'));
  }
  const existing = (response: ApiResponse) => response.headers.get('ledger-existing') === 'true';

  it('GET answers 404 PROOF_NOT_FOUND before any proof, and never stores one', async () => {
    expectError(await latest(), 404, 'PROOF_NOT_FOUND');
    expectError(await latest(), 404, 'PROOF_NOT_FOUND');
    expect(await stored()).toBe(0);
  });

  it('two POSTs without a posting between store one proof; GETs read it and store nothing', async () => {
    await postOne();
    const first = await issue();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(existing(first)).toBe(false);
    expect(first.body).not.toHaveProperty('accounts');
    const second = await issue();
    expect(second.status).toBe(201);
    expect(existing(second)).toBe(true);
    expect(second.body).toEqual(first.body);
    expect(await stored()).toBe(1);
    for (let read = 0; read < 3; read++) expect((await latest()).body.id).toBe(first.body.id);
    const byId = await api.request('GET', `/v1/proofs/balances?proofId=${first.body.id}`, { key: auditor });
    expect(byId.body.accounts.length).toBeGreaterThan(0);
    expect(await stored()).toBe(1);
  });

  it('concurrent POSTs at one journal position store one proof between them', async () => {
    await postOne();
    const before = await stored();
    const answers = await Promise.all(Array.from({ length: 5 }, () => issue()));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => !existing(answer))).toHaveLength(1);
    expect(await stored()).toBe(before + 1);
  });

  it('a posting between makes a new proof; an asOf is its own position, reused the same way', async () => {
    const before = await stored();
    const old = (await latest()).body.id;
    await postOne();
    const moved = await issue();
    expect(existing(moved)).toBe(false);
    expect(moved.body.id).not.toBe(old);
    const asOf = new Date(Date.now() - 3_600_000).toISOString();
    const past = await issue({ asOf });
    expect(existing(past)).toBe(false);
    expect(past.body.asOf).toBe(asOf);
    const pastAgain = await issue({ asOf });
    expect(existing(pastAgain)).toBe(true);
    expect(pastAgain.body.id).toBe(past.body.id);
    expect(existing(await issue())).toBe(true);
    expect(await stored()).toBe(before + 2);
    expectError(await issue({ asOf: 'yesterday' }), 400, 'VALIDATION_FAILED');
    expectError(await issue({ since: old }), 400, 'VALIDATION_FAILED');
  });

  it(`issues at most ${PER_MINUTE_MAX} new proofs a minute per tenant; reusing one is not limited`, async () => {
    expect(await stored()).toBe(PER_MINUTE_MAX);
    expect(existing(await issue()), 'the stored proof of this position, at the limit').toBe(true);
    await postOne();
    const refused = await issue();
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await stored()).toBe(PER_MINUTE_MAX);
    // Another tenant is not held back by this one.
    const other = await seededTenant(api, 'proof issuing, other');
    const otherAuditor = await createApiKey(api, other.adminKey, ['auditor']);
    const elsewhere = await api.request('POST', '/v1/proofs/balances', {
      key: otherAuditor,
      idempotencyKey: randomUUID(),
      body: {},
    });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);
  });
}

describe('balance proofs issued by POST, on PostgreSQL', () => proofIssuing(false));
describe('balance proofs issued by POST, on the embedded database', () => proofIssuing(true));
