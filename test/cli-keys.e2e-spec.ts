import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { BUILT } from './support/built-process';
import { createApiKey, expectError, sqlRows } from './support/ledger-fixtures';

// `ledger keys list` and `ledger keys revoke`: the same rules as the API, audited as `cli:<os user>`.

let api: ApiHarness;
const actor = `cli:${userInfo().username}`;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

async function ledger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BUILT.cli, ...args], {
      env: { ...process.env, DATABASE_URL: api.db.url },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('ledger keys list / revoke', () => {
  it('lists the keys, revokes one (audited, 401 from then on), and keeps the last admin key', async () => {
    const { tenantId, adminKey } = await api.createTenant('cli keys');
    const posterKey = await createApiKey(api, adminKey, ['poster'], 'checkout');
    const ids = await sqlRows<{ id: string; name: string }>(
      api,
      'SELECT id::text, name FROM api_keys WHERE tenant_id = $1 ORDER BY id DESC',
      [tenantId],
    );
    const listed = await ledger('keys', 'list', '--tenant', tenantId);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.map((line) => line.split('  ')[0])).toEqual(ids.map((key) => key.id));
    expect(lines[0]).toMatch(/ poster {2}created \S+ {2}expires never {2}checkout$/);
    expect(listed.stdout).not.toContain(posterKey.slice(4, 20));

    const posterId = ids.find((key) => key.name === 'checkout')!.id;
    const revoked = await ledger('keys', 'revoke', '--tenant', tenantId, posterId);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^key ${posterId} revoked \\d{4}-`));
    expect((await ledger('keys', 'list', '--tenant', tenantId)).stdout).toMatch(/ poster {2}created \S+ {2}revoked /);
    // The API process never verified the key before, so it reads it now: refused.
    expectError(await api.request('GET', '/v1/accounts', { key: posterKey }), 401, 'UNAUTHENTICATED');

    const adminId = ids.find((key) => key.name !== 'checkout')!.id;
    const refused = await ledger('keys', 'revoke', '--tenant', tenantId, adminId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the tenant's last admin key");
    const unknown = await ledger('keys', 'revoke', '--tenant', tenantId, 'not-a-key');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('API key not-a-key not found');

    const entries = await sqlRows<{ actor: string; target_id: string; request: unknown }>(
      api,
      "SELECT actor, target_id, request FROM audit_log WHERE tenant_id = $1 AND action = 'api_key.revoke'",
      [tenantId],
    );
    expect(entries).toEqual([{ actor, target_id: posterId, request: {} }]);
  });
});
