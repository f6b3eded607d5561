import 'reflect-metadata';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DatabaseModule, applyMigrations, createDatabase, migrationsDirectory, newId } from '@ledger/db';
import { CreateSourceUseCase, ImportStatementUseCase, ImportsModule } from '@ledger/imports';
import { CreateAccountUseCase, LedgerModule, PostBatchUseCase, createAccountSchema } from '@ledger/ledger';
import { ReconciliationModule, RunReconciliationUseCase } from '@ledger/reconciliation';
import { freshBenchDatabase } from './bench-database';
import { SEED_BATCH, SEED_BATCHES_IN_FLIGHT, amountMinor, postCharges } from './reconcile-seed';

// Reconciles N gateway statement lines against N ledger entries on the clearing account (each line's
// source id is its transaction's externalRef), through the same use cases the API runs, and reports
// the run's time and the process's peak memory.
const DATABASE = process.env.BENCH_RECONCILE_DATABASE ?? 'ledger_bench_reconcile';
const LINES = Number(process.env.BENCH_RECONCILE_LINES ?? '1000000');
const MEMORY_SAMPLE_MS = 50;

const money = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
const day = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);

async function gatewayCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description\n');
  for (let index = 0; index < LINES; index++) {
    const net = amountMinor(index);
    if (!out.write(`txn_${index},${day} 10:00:00,${day} 00:00:00,usd,${money(net + 30)},0.30,${money(net)},charge,ch_${index},,Order ${index}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function measure<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; peakRssMiB: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), MEMORY_SAMPLE_MS);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  try {
    const result = await work();
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds, peakRssMiB: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const database = await createDatabase({ databaseUrl: await freshBenchDatabase(DATABASE), dataDir: '', poolSize: 4 });
  await applyMigrations(database.sql, migrationsDirectory());
  @Module({ imports: [DatabaseModule.forRoot(database), LedgerModule, ImportsModule, ReconciliationModule] })
  class ReconcileBenchModule {}
  const app = await NestFactory.createApplicationContext(ReconcileBenchModule, { logger: ['error'] });
  const tenantId = newId();
  await database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'reconcile bench']);
  for (const [code, normalBalance] of [['assets:gateway', 'debit'], ['income:sales', 'credit']] as const) {
    await app.get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse({ code, currency: 'USD', normalBalance, allowNegative: true }) });
  }
  await app.get(CreateSourceUseCase).execute({ tenantId, name: 'gateway', account: 'assets:gateway', format: 'csv:gateway' });
  const posting = await measure(() => postCharges(database, app.get(PostBatchUseCase), tenantId, LINES));
  const directory = await mkdtemp(join(tmpdir(), 'reconcile-bench-'));
  const file = join(directory, 'gateway.csv');
  await gatewayCsv(file);
  const importing = await measure(() => app.get(ImportStatementUseCase).execute({ tenantId, source: 'gateway', input: createReadStream(file, { highWaterMark: 256 * 1024 }) }));
  await rm(directory, { recursive: true, force: true });
  const loadBefore = loadavg()[0]!;
  const reconciling = await measure(() => app.get(RunReconciliationUseCase).execute({ tenantId, trigger: 'cli' }));
  const run = reconciling.result;
  const report = [
    '# Reconciliation bench',
    '',
    `${LINES} gateway statement lines against ${LINES} ledger entries on the clearing account (${LINES * 2} entries in all), PostgreSQL on this machine.`,
    '',
    `Load average (1 min) before the run: ${loadBefore.toFixed(1)} on ${availableParallelism()} cores: well above 0, other work shares the machine.`,
    '',
    '| step | seconds | CPU seconds of the process | peak RSS of the process |',
    '|---|---:|---:|---:|',
    `| post ${LINES} transactions (batches of ${SEED_BATCH}, ${SEED_BATCHES_IN_FLIGHT} in flight) | ${posting.seconds.toFixed(1)} | ${posting.cpuSeconds.toFixed(1)} | ${posting.peakRssMiB} MiB |`,
    `| import ${LINES} lines | ${importing.seconds.toFixed(1)} | ${importing.cpuSeconds.toFixed(1)} | ${importing.peakRssMiB} MiB |`,
    `| reconciliation run | ${reconciling.seconds.toFixed(1)} | ${reconciling.cpuSeconds.toFixed(1)} | ${reconciling.peakRssMiB} MiB |`,
    '',
    `Run stats: ${JSON.stringify(run.stats)}`,
    '',
  ].join('\n');
  await mkdir('bench-results', { recursive: true });
  await writeFile(join('bench-results', 'reconcile.md'), report);
  console.log(report);
  await app.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
