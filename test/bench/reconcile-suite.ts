import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { ImportStatementUseCase } from '@ledger/imports';
import { PostBatchUseCase } from '@ledger/ledger';
import { RunReconciliationUseCase } from '@ledger/reconciliation';
import type pg from 'pg';
import type { BenchConfig } from './bench-config';
import type { BenchLog } from './bench-log';
import { type Comparison, compare } from './comparison';
import { type InProcessLedger, createBenchAccount, createBenchSource, createBenchTenant } from './in-process-ledger';
import { withInProcessSuite } from './in-process-suite';
import { measure } from './measure';
import { SEED_BATCH, SEED_BATCHES_IN_FLIGHT, amountMinor, postCharges } from './reconcile-seed';
import { matchBySql } from './sql-match';
import { GATEWAY_CSV, type StatementFormat, writeStatementFile } from './statement-files';

// The reconcile suite: per run a tenant of its own with N charges posted through PostBatchUseCase and
// a gateway statement of N lines (one per charge, its source_id the charge's externalRef) imported
// through ImportStatementUseCase; then the plain SQL join (sql-match.ts, rolled back) and one
// RunReconciliationUseCase run, in which every line matches its entry by reference.

const money = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);

/** The gateway's report of the seeded charges: line i is charge ch_<i>, net of a 0.30 fee. */
const CHARGES_CSV: StatementFormat = {
  ...GATEWAY_CSV,
  line(index) {
    const net = BigInt(amountMinor(index));
    const raw =
      `txn_${index},${yesterday} 10:00:00,${yesterday} 00:00:00,` +
      `usd,${money(net + 30n)},0.30,${money(net)},charge,ch_${index},,Order ${index}`;
    return {
      externalId: `txn_${index}`,
      bookedOn: yesterday,
      amountMinor: net,
      currency: 'USD',
      description: `Order ${index}`,
      references: { gatewayId: `txn_${index}`, sourceId: `ch_${index}` },
      raw,
    };
  },
};

export interface ReconcileRun {
  run: number;
  lines: number;
  seedSeconds: number;
  importSeconds: number;
  baselineSeconds: number;
  runSeconds: number;
  runCpuSeconds: number;
  runPeakRssMiB: number;
  /** The run's own stats (matched per rule, tickets, durations of its steps). */
  stats: Record<string, unknown>;
}

export interface ReconcileResults {
  lines: number;
  runs: ReconcileRun[];
  comparisons: Comparison[];
}

function matchedLines(stats: Record<string, unknown>): number {
  const matched = (stats.matched ?? {}) as Record<string, number>;
  return Object.values(matched).reduce((sum, count) => sum + count, 0);
}

async function measureRun(
  ledger: InProcessLedger,
  baselinePool: pg.Pool,
  file: string,
  lines: number,
  run: number,
): Promise<ReconcileRun> {
  const tenantId = await createBenchTenant(ledger, `reconcile bench ${run}`);
  for (const [code, normalBalance] of [
    ['assets:gateway', 'debit'],
    ['income:sales', 'credit'],
  ] as const) {
    await createBenchAccount(ledger, tenantId, { code, currency: 'USD', normalBalance, allowNegative: true });
  }
  await createBenchSource(ledger, tenantId, { name: 'gateway', account: 'assets:gateway', format: 'csv:gateway' });
  const seed = await measure(() => postCharges(ledger.database, ledger.app.get(PostBatchUseCase), tenantId, lines));
  const importing = await measure(() =>
    ledger.app.get(ImportStatementUseCase).execute({
      tenantId,
      actor: 'bench',
      source: 'gateway',
      input: createReadStream(file, { highWaterMark: 256 * 1024 }),
    }),
  );
  await ledger.database.sql.query('CHECKPOINT');
  const baseline = await measure(() => matchBySql(baselinePool, tenantId, 'gateway'));
  if (baseline.result !== lines)
    throw new Error(`reconcile run ${run}: the SQL join matched ${baseline.result} of ${lines} lines`);
  await ledger.database.sql.query('CHECKPOINT');
  const reconciling = await measure(() =>
    ledger.app.get(RunReconciliationUseCase).execute({ tenantId, trigger: 'cli', actor: 'bench' }),
  );
  const stats = reconciling.result.stats as Record<string, unknown>;
  if (matchedLines(stats) !== lines)
    throw new Error(
      `reconcile run ${run}: the run matched ${matchedLines(stats)} of ${lines} lines: ${JSON.stringify(stats)}`,
    );
  return {
    run,
    lines,
    seedSeconds: seed.seconds,
    importSeconds: importing.seconds,
    baselineSeconds: baseline.seconds,
    runSeconds: reconciling.seconds,
    runCpuSeconds: reconciling.cpuSeconds,
    runPeakRssMiB: reconciling.peakRssMiB,
    stats,
  };
}

export async function runReconcileSuite(config: BenchConfig, log: BenchLog): Promise<ReconcileResults> {
  const lines = config.reconcileLines;
  return withInProcessSuite(config, 'reconcile', async ({ ledger, baselinePool, directory }) => {
    const file = join(directory, 'gateway.csv');
    await writeStatementFile(file, CHARGES_CSV, lines);
    const runs: ReconcileRun[] = [];
    for (let run = 1; run <= config.runCount; run++) {
      const measured = await measureRun(ledger, baselinePool, file, lines, run);
      log(
        `reconcile run ${run}/${config.runCount}: seed ${measured.seedSeconds.toFixed(1)} s (batches of ` +
          `${SEED_BATCH}, ${SEED_BATCHES_IN_FLIGHT} in flight), ` +
          `import ${measured.importSeconds.toFixed(1)} s, SQL join ${measured.baselineSeconds.toFixed(2)} s, ` +
          `reconciliation run ${measured.runSeconds.toFixed(2)} s`,
      );
      runs.push(measured);
    }
    const comparison = compare({
      suite: 'reconcile',
      workload: `reconciliation, ${lines} lines against ${lines} entries`,
      unit: 'lines/s',
      ledgerPath: 'RunReconciliationUseCase',
      ledgerRuns: runs.map((run) => lines / run.runSeconds),
      baselineRuns: runs.map((run) => lines / run.baselineSeconds),
    });
    return { lines, runs, comparisons: [comparison] };
  });
}
