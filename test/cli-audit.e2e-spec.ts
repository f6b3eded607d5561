import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { BUILT } from './support/built-process';
import { createAccount, sqlRows } from './support/ledger-fixtures';
import { bankCsv, createSource, financeKey, statementDay } from './support/reconciliation-fixtures';

// The `ledger` command's privileged work is accountable like the API's: its audit entries and rows
// name `cli:<os user>`.

let api: ApiHarness;
let folder: string;
const actor = `cli:${userInfo().username}`;

beforeAll(async () => {
  api = await startApi();
  folder = await mkdtemp(join(tmpdir(), 'ledger-cli-audit-'));
});
afterAll(async () => {
  await api?.close();
  await rm(folder, { recursive: true, force: true });
});

async function ledger(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BUILT.cli, ...args], {
    env: { ...process.env, DATABASE_URL: api.db.url },
  });
  return stdout;
}

describe('the ledger command', () => {
  it('audits tenants create and keys create, and records itself on imports and runs', async () => {
    const created = await ledger('tenants', 'create', 'From the command line');
    const tenantId = /^tenant: ([0-9a-f-]{36})/.exec(created)![1]!;
    const adminKey = /admin API key \(shown once\): (\S+)/.exec(created)![1]!;
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const keyLine = await ledger(
      'keys',
      'create',
      '--tenant',
      tenantId,
      '--roles',
      'poster',
      '--name',
      'checkout',
      '--expires-at',
      expiresAt,
    );
    const keyId = /^key ([0-9a-f-]{36}) /.exec(keyLine)![1]!;
    expect(keyLine).toContain(`expires ${expiresAt}`);
    const entries = await sqlRows<{ action: string; actor: string; target_id: string; request: unknown }>(
      api,
      'SELECT action, actor, target_id, request FROM audit_log WHERE tenant_id = $1 ORDER BY id',
      [tenantId],
    );
    expect(entries).toEqual([
      { action: 'tenant.create', actor, target_id: tenantId, request: { name: 'From the command line' } },
      {
        action: 'api_key.create',
        actor,
        target_id: keyId,
        request: { name: 'checkout', roles: ['poster'], expiresAt },
      },
    ]);
    const [key] = await sqlRows<{ expires_at: Date }>(
      api,
      'SELECT expires_at FROM api_keys WHERE tenant_id = $1 AND id = $2',
      [tenantId, keyId],
    );
    expect(key!.expires_at.toISOString()).toBe(expiresAt);

    const tenant = { tenantId, adminKey, posterKey: '' };
    await createAccount(api, adminKey, { code: 'assets:bank', currency: 'USD', normalBalance: 'debit' });
    await createSource(api, await financeKey(api, tenant), {
      name: 'bank',
      account: 'assets:bank',
      format: 'csv:bank',
    });
    const file = join(folder, 'bank.csv');
    const day = statementDay(-1);
    await writeFile(file, bankCsv([`${day},${day},Deposit,5.00,USD,REF-CLI,Acme`]));
    await ledger('import', file, '--tenant', tenantId, '--source', 'bank');
    await ledger('reconcile', '--tenant', tenantId);
    const actors = await sqlRows<{ what: string; actor: string }>(
      api,
      `SELECT 'import' AS what, actor FROM statement_imports WHERE tenant_id = $1
       UNION ALL SELECT 'run', actor FROM reconciliation_runs WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(actors).toEqual([
      { what: 'import', actor },
      { what: 'run', actor },
    ]);
  });
});
