import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { type FaultTenant, setupFaultTenant } from './support/fault-tenant';
import { LedgerStack, waitForWritingTransaction } from './support/ledger-stack';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';
import { bankStatementCsv, uploadStatement } from './support/statement-files';

const KILL_DELAY_MAX_MS = 300;
const STORED = `
SELECT (SELECT count(*)::int FROM statement_imports i
           JOIN statement_sources s ON s.tenant_id = i.tenant_id AND s.id = i.source_id
         WHERE i.tenant_id = $1 AND s.name = $2) AS imports,
       (SELECT count(*)::int FROM statement_imports i
           JOIN statement_sources s ON s.tenant_id = i.tenant_id AND s.id = i.source_id
         WHERE i.tenant_id = $1 AND s.name = $2 AND i.completed_at IS NOT NULL) AS completed,
       (SELECT count(*)::int FROM statement_lines l
           JOIN statement_sources s ON s.tenant_id = l.tenant_id AND s.id = l.source_id
         WHERE l.tenant_id = $1 AND s.name = $2) AS lines`;

const NOTHING = { imports: 0, completed: 0, lines: 0 };
const whole = (lines: number) => ({ imports: 1, completed: 1, lines });

let nats: PrivateNatsServer;
let stack: LedgerStack;
let tenant: FaultTenant;
let directory: string;

beforeAll(async () => {
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({
    adminDatabaseUrl: SHARED_ADMIN_DATABASE_URL,
    natsUrl: nats.url,
    natsStream: 'FAULTS_IMPORT',
  });
  await stack.startApi();
  tenant = await setupFaultTenant(stack, 0);
  directory = await mkdtemp(join(tmpdir(), 'ledger-fault-import-'));
  await stack.request('POST', '/v1/accounts', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: { code: 'assets:bank', currency: 'USD', normalBalance: 'debit', allowNegative: true },
  });
  for (const name of ['bank-api', 'bank-cli']) {
    const source = await stack.request('POST', '/v1/sources', {
      key: tenant.financeKey,
      idempotencyKey: randomUUID(),
      body: { name, account: 'assets:bank', format: 'csv:bank' },
    });
    if (source.status !== 201) throw new Error(`source: ${source.status} ${JSON.stringify(source.body)}`);
  }
});

afterAll(async () => {
  await stack?.dispose();
  await nats?.dispose();
  if (directory) await rm(directory, { recursive: true, force: true });
});

async function stored(source: string): Promise<{ imports: number; completed: number; lines: number }> {
  return (
    await stack.sql<{ imports: number; completed: number; lines: number }>(STORED, [tenant.tenantId, source])
  )[0]!;
}

describe('kill -9 during a statement import', () => {
  it('through the API: nothing of the file is stored, and the same upload again stores it whole, once', async () => {
    const random = new SeededRandom(FAULT_SEED, 'import-kill api');
    const lines = FAULT_SETTINGS.importLines;
    const csv = bankStatementCsv(lines, 'API');
    const idempotencyKey = randomUUID();
    const upload = uploadStatement(stack.baseUrl, tenant.financeKey, idempotencyKey, 'bank-api', 'large.csv', csv).then(
      (answer) => ({ answered: true as const, answer }),
      (error: unknown) => ({ answered: false as const, error: String(error) }),
    );
    await waitForWritingTransaction(stack);
    const delayMs = random.between(0, KILL_DELAY_MAX_MS);
    await sleep(delayMs);
    await stack.killApi();
    const interrupted = await upload;
    const afterKill = await stored('bank-api');
    await stack.startApi();

    const retried = await uploadStatement(
      stack.baseUrl,
      tenant.financeKey,
      idempotencyKey,
      'bank-api',
      'large.csv',
      csv,
    );
    const afterRetry = await stored('bank-api');
    const again = await uploadStatement(stack.baseUrl, tenant.financeKey, randomUUID(), 'bank-api', 'large.csv', csv);
    const afterAgain = await stored('bank-api');
    await recordFigures('import-kill-api', {
      headline:
        `${lines} lines; killed ${delayMs} ms into the write: ${afterKill.lines} lines stored after the kill, ` +
        `${afterRetry.lines} after the retry, ${afterAgain.lines} after uploading again`,
      lines,
      killDelayMs: delayMs,
      requestAnswered: interrupted.answered,
      afterKill,
      afterRetry,
      afterAgain,
    });

    expect(interrupted.answered, 'the kill interrupted the upload').toBe(false);
    expect([NOTHING, whole(lines)], 'a killed import is stored entirely or not at all').toContainEqual(afterKill);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ lines, duplicates: 0, source: 'bank-api' });
    expect(afterRetry).toEqual(whole(lines));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id, 'the same file is recognised as the same import').toBe(retried.body.id);
    expect(afterAgain).toEqual(afterRetry);
  });

  it('through `ledger import`: nothing is stored, and the command run again imports the file whole', async () => {
    const random = new SeededRandom(FAULT_SEED, 'import-kill cli');
    const lines = FAULT_SETTINGS.importLines;
    const file = join(directory, 'large-cli.csv');
    await writeFile(file, bankStatementCsv(lines, 'CLI'));
    const args = ['import', file, '--tenant', tenant.tenantId, '--source', 'bank-cli'];
    const command = stack.cli(args);
    await waitForWritingTransaction(stack);
    const delayMs = random.between(0, KILL_DELAY_MAX_MS);
    await sleep(delayMs);
    const finishedBeforeKill = !command.running;
    await command.kill9();
    stack.kills.cli++;
    const afterKill = await stored('bank-cli');

    const rerun = await stack.runCli(args);
    const afterRerun = await stored('bank-cli');
    const again = await stack.runCli(args);
    const afterAgain = await stored('bank-cli');
    await recordFigures('import-kill-cli', {
      headline:
        `${lines} lines; killed ${delayMs} ms into the write: ${afterKill.lines} lines stored after the kill, ` +
        `${afterRerun.lines} after the rerun, ${afterAgain.lines} after a second run`,
      lines,
      killDelayMs: delayMs,
      afterKill,
      afterRerun,
      afterAgain,
    });

    expect(finishedBeforeKill, 'the kill interrupted the command').toBe(false);
    expect([NOTHING, whole(lines)], 'a killed import is stored entirely or not at all').toContainEqual(afterKill);
    expect(rerun.code, rerun.output).toBe(0);
    expect(rerun.output).toContain(`imported: `);
    expect(afterRerun).toEqual(whole(lines));
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('already imported');
    expect(afterAgain).toEqual(afterRerun);
  });
});
