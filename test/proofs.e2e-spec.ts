import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { verifyProof } from '@ledger/proofs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type AuditedLedger, postMore, seedAuditedLedger } from './support/audit-fixtures';
import { expectError, getAccount, mustPost, sqlRows, transfer } from './support/ledger-fixtures';

const run = promisify(execFile);

/** `ledger proof verify` from the built CLI: no database settings at all. */
async function cliVerify(args: string[]): Promise<{ code: number; stdout: string }> {
  const env = { PATH: process.env.PATH ?? '' };
  try {
    const { stdout } = await run(process.execPath, ['dist/apps/cli/src/main.js', 'proof', 'verify', ...args], { env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('balance proofs', () => {
  let api: ApiHarness;
  let ledger: AuditedLedger;
  let keyId: string;
  let dir: string;

  beforeAll(async () => {
    // Proofs are issued here far more often than a tenant may in production.
    api = await startApi({ settings: { LEDGER_PROOFS_PER_MINUTE_MAX: '1000' } });
    ledger = await seedAuditedLedger(api);
    keyId = (await api.request('GET', '/v1/proofs/key')).body.keyId;
    dir = await mkdtemp(join(tmpdir(), 'ledger-proofs-'));
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Issues a proof (or has the stored one of this position), then reads the whole document. */
  async function issue(body: { asOf?: string } = {}, since?: string): Promise<any> {
    const issued = await api.request('POST', '/v1/proofs/balances', {
      key: ledger.auditorKey,
      idempotencyKey: randomUUID(),
      body,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const query = new URLSearchParams({ proofId: issued.body.id, ...(since === undefined ? {} : { since }) });
    const response = await api.request('GET', `/v1/proofs/balances?${query}`, { key: ledger.auditorKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  it('publishes the Ed25519 public key, and proofs are for auditors and admins only', async () => {
    const key = await api.request('GET', '/v1/proofs/key');
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({
      algorithm: 'Ed25519',
      keyId: expect.stringMatching(/^[0-9a-f]{64}$/),
      publicKeyPem: expect.stringContaining('PUBLIC KEY'),
    });
    const issue = (key: string) =>
      api.request('POST', '/v1/proofs/balances', { key, idempotencyKey: randomUUID(), body: {} });
    expectError(await issue(ledger.tenant.posterKey), 403, 'FORBIDDEN');
    expectError(await api.request('GET', '/v1/proofs/balances', { key: ledger.tenant.posterKey }), 403, 'FORBIDDEN');
    expect((await issue(ledger.tenant.adminKey)).status).toBe(201);
    expect((await api.request('GET', '/v1/proofs/balances', { key: ledger.tenant.adminKey })).status).toBe(200);
  });

  it("signs every account's posted balance as the API reports it, and the proof verifies", async () => {
    const proof = await issue();
    const verdict = verifyProof(proof, { trustedKeyId: keyId });
    expect(verdict.firstFailure).toBeNull();
    expect(proof.accounts).toHaveLength(ledger.codes.length);
    for (const account of proof.accounts)
      expect(account.balance, account.code).toBe(
        (await getAccount(api, ledger.auditorKey, account.code)).balances.posted,
      );
    expect(proof.currencies.map((currency: any) => currency.currency)).toEqual(['BHD', 'EUR', 'JPY', 'USD']);
    expect(proof.journal.stripes).toHaveLength(16);
  });

  it('signs balances as of a past time, equal to GET /balance?asOf for every account', async () => {
    const asOf = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    const proof = await issue({ asOf });
    expect(verifyProof(proof).ok).toBe(true);
    expect(proof.asOf).toBe(asOf);
    for (const account of proof.accounts) {
      const balance = await api.request(
        'GET',
        `/v1/accounts/${encodeURIComponent(account.code)}/balance?asOf=${asOf}`,
        { key: ledger.auditorKey },
      );
      expect(account.balance, account.code).toBe(balance.body.posted);
    }
  });

  it('signs exactly the transactions up to its journal heads while postings run concurrently', async () => {
    // Three clients post 10 transfers each while an auditor keeps asking for proofs.
    let posting = true;
    const clients = Array.from({ length: 3 }, async () => {
      for (let index = 0; index < 10; index++)
        await mustPost(
          api,
          ledger.tenant.posterKey,
          transfer('liabilities:wallets:alice', 'liabilities:wallets:bob', '1'),
        );
    });
    const done = Promise.all(clients).finally(() => (posting = false));
    const issued: any[] = [];
    while (posting || issued.length < 3) issued.push(await issue());
    await done;
    const positions = new Set(issued.map((proof: any) => proof.journal.head));
    for (const proof of issued) {
      // The same balances recomputed from the journal alone: entries of the links up to each stripe's head.
      const rows = await sqlRows<{ account_id: string; debits: string; credits: string }>(
        api,
        `SELECT e.account_id,
                coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'debit'), 0)::text AS debits,
                coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'credit'), 0)::text AS credits
           FROM entries e
           JOIN journal_links l ON l.tenant_id = e.tenant_id AND l.transaction_id = e.transaction_id
           JOIN unnest($2::int[], $3::bigint[]) AS h(stripe, seq) ON h.stripe = l.stripe AND l.seq <= h.seq
          WHERE e.tenant_id = $1 AND NOT e.pending AND e.effective_at <= $4
          GROUP BY e.account_id`,
        [
          ledger.tenant.tenantId,
          proof.journal.stripes.map((head: any) => head.stripe),
          proof.journal.stripes.map((head: any) => head.seq),
          proof.asOf,
        ],
      );
      const fromJournal = new Map(rows.map((row) => [row.account_id, [row.debits, row.credits]]));
      for (const account of proof.accounts)
        expect([account.postedDebits, account.postedCredits], account.code).toEqual(
          fromJournal.get(account.id) ?? ['0', '0'],
        );
      expect(verifyProof(proof).ok).toBe(true);
    }
    expect(positions.size, 'proofs were taken at different positions').toBeGreaterThan(1);
  });

  it("serves an account's inclusion proof against an issued proof; a forged one fails", async () => {
    const proof = await issue();
    const response = await api.request('GET', `/v1/proofs/balances/liabilities:wallets:alice?proofId=${proof.id}`, {
      key: ledger.auditorKey,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.checkpoint.id).toBe(proof.id);
    expect(
      verifyProof(response.body, { account: 'liabilities:wallets:alice', trustedKeyId: keyId }).firstFailure,
    ).toBeNull();
    const forged = structuredClone(response.body);
    forged.account.postedCredits = (BigInt(forged.account.postedCredits) + 100n).toString();
    forged.account.balance = (BigInt(forged.account.balance) + 100n).toString();
    expect(verifyProof(forged).firstFailure?.check).toBe('inclusion');
    expectError(
      await api.request('GET', '/v1/proofs/balances/no:such:account', { key: ledger.auditorKey }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api.request('GET', `/v1/proofs/balances/liabilities:wallets:alice?proofId=${'0'.repeat(64)}`, {
        key: ledger.auditorKey,
      }),
      404,
      'PROOF_NOT_FOUND',
    );
  });

  it('proves that a later journal extends an earlier one, and a proof that drops a transaction does not', async () => {
    const earlier = await issue();
    await postMore(api, ledger.tenant, 5);
    const later = await issue({}, earlier.id);
    expect(later.consistency.stripes.flatMap((stripe: any) => stripe.links)).toHaveLength(5);
    expect(verifyProof(later, { previous: earlier, trustedKeyId: keyId }).firstFailure).toBeNull();
    const dropped = structuredClone(later);
    dropped.consistency.stripes[0].links.splice(0, 1);
    expect(verifyProof(dropped, { previous: earlier }).firstFailure?.check).toBe('consistency');
    expectError(
      await api.request('GET', `/v1/proofs/balances?since=${'a'.repeat(64)}`, { key: ledger.auditorKey }),
      404,
      'PROOF_NOT_FOUND',
    );
    expectError(
      await api.request('GET', '/v1/proofs/balances?since=xyz', { key: ledger.auditorKey }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('the CLI verifier prints each check and names the first that fails, with exit code 1', async () => {
    const earlier = await issue();
    await postMore(api, ledger.tenant, 2);
    const later = await issue({}, earlier.id);
    const files = {
      earlier: join(dir, 'earlier.json'),
      later: join(dir, 'later.json'),
      tampered: join(dir, 'tampered.json'),
    };
    await writeFile(files.earlier, JSON.stringify(earlier));
    await writeFile(files.later, JSON.stringify(later, null, 2));
    const good = await cliVerify([
      files.later,
      '--previous',
      files.earlier,
      '--account',
      'liabilities:wallets:bob',
      '--key',
      keyId,
    ]);
    expect(good.stdout).toMatch(/verdict: VERIFIED/);
    expect(good.stdout).toMatch(/ok +consistency/);
    expect(good.code).toBe(0);
    const tampered = structuredClone(later);
    tampered.accounts[0].postedDebits = (BigInt(tampered.accounts[0].postedDebits) + 1n).toString();
    tampered.accounts[0].balance = (
      BigInt(tampered.accounts[0].balance) + (tampered.accounts[0].normalBalance === 'debit' ? 1n : -1n)
    ).toString();
    await writeFile(files.tampered, JSON.stringify(tampered));
    const bad = await cliVerify([files.tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL +tree/);
    expect(bad.stdout).toMatch(/verdict: NOT VERIFIED \(first failing check: tree\)/);
    await writeFile(files.tampered, '{"format": ');
    expect((await cliVerify([files.tampered])).stdout).toMatch(/FAIL +format .*not JSON/);
  });

  it('`ledger proof verify` opens no database: DATABASE_URL at a closed port, no data dir: it verifies', async () => {
    const proof = await issue();
    const file = join(dir, 'offline.json');
    await writeFile(file, JSON.stringify(proof));
    // An empty working directory and a data dir that does not exist: the embedded database would create one.
    const work = await mkdtemp(join(tmpdir(), 'ledger-offline-'));
    const dataDir = join(work, 'data');
    const cli = resolve(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
    const { stdout } = await run(process.execPath, [cli, 'proof', 'verify', file, '--key', keyId], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/ledger',
        LEDGER_DATA_DIR: dataDir,
      },
    });
    expect(stdout).toMatch(/ok +signature/);
    expect(stdout).toMatch(/verdict: VERIFIED/);
    expect(existsSync(dataDir)).toBe(false);
    expect(await readdir(work)).toEqual([]);
  });
});
