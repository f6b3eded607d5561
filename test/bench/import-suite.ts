import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportStatementUseCase } from '@ledger/imports';
import type pg from 'pg';
import type { BenchConfig } from './bench-config';
import type { BenchLog } from './bench-log';
import { type Comparison, compare } from './comparison';
import { cpuSpentBetween, takeCpuSnapshot } from './cpu-usage';
import { type InProcessLedger, createBenchAccount, createBenchSource, createBenchTenant } from './in-process-ledger';
import { withInProcessSuite } from './in-process-suite';
import { type Measured, measure } from './measure';
import { loadLinesBySql } from './sql-import';
import { STATEMENT_FORMATS, type StatementFormat, writeStatementFile } from './statement-files';

// The import suite: a generated gateway CSV and a camt.053 file of the same number of lines, each
// imported BENCH_RUNS times through ImportStatementUseCase (what POST /v1/imports and `ledger import`
// run, streamed from the file) and loaded as many times by the plain SQL baseline (sql-import.ts).
// Every run writes into a source of its own, so no run finds the previous run's lines as duplicates.

export interface ImportRun {
  format: StatementFormat['name'];
  mode: 'ledger' | 'sql';
  run: number;
  lines: number;
  seconds: number;
  linesPerSecond: number;
  cpuSeconds: number;
  /** CPU of the PostgreSQL backends serving the bench database (from /proc; NaN elsewhere). */
  postgresCpuSeconds: number;
  rssGrowthMiB: number;
  peakRssMiB: number;
  /** JavaScript heap bytes this process allocated, and its garbage collector's time (see measure.ts). */
  allocatedBytes: number;
  gcMs: number;
}

export interface ImportResults {
  lines: Record<StatementFormat['name'], number>;
  fileBytes: Record<string, number>;
  runs: ImportRun[];
  comparisons: Comparison[];
}

interface ImportContext {
  ledger: InProcessLedger;
  baselinePool: pg.Pool;
  tenantId: string;
  databaseName: string;
}

/** The work measured, with the CPU the database's backends spent on it beside this process's own. */
async function measureWithPostgres(
  context: ImportContext,
  work: () => Promise<number>,
): Promise<Measured<number> & { postgresCpuSeconds: number }> {
  const before = takeCpuSnapshot(process.pid, context.databaseName);
  const measured = await measure(work);
  const spent = cpuSpentBetween(before, takeCpuSnapshot(process.pid, context.databaseName));
  return { ...measured, postgresCpuSeconds: spent.postgresMs / 1000 };
}

function runOf(
  format: StatementFormat,
  mode: ImportRun['mode'],
  run: number,
  measured: Measured<number> & { postgresCpuSeconds: number },
): ImportRun {
  const { seconds, cpuSeconds, postgresCpuSeconds, rssGrowthMiB, peakRssMiB, allocatedBytes, gcMs } = measured;
  return {
    format: format.name,
    mode,
    run,
    lines: measured.result,
    seconds,
    linesPerSecond: measured.result / seconds,
    cpuSeconds,
    postgresCpuSeconds,
    rssGrowthMiB,
    peakRssMiB,
    allocatedBytes,
    gcMs,
  };
}

async function importThroughLedger(
  context: ImportContext,
  format: StatementFormat,
  file: string,
  run: number,
): Promise<ImportRun> {
  const source = `${format.name}-ledger-${run}`;
  await createBenchSource(context.ledger, context.tenantId, {
    name: source,
    account: format.account,
    format: format.sourceFormat,
  });
  const importing = context.ledger.app.get(ImportStatementUseCase);
  const measured = await measureWithPostgres(context, async () => {
    const result = await importing.execute({
      tenantId: context.tenantId,
      actor: 'bench',
      source,
      input: createReadStream(file, { highWaterMark: 256 * 1024 }),
    });
    return result.import.lines;
  });
  return runOf(format, 'ledger', run, measured);
}

async function importThroughSql(
  context: ImportContext,
  format: StatementFormat,
  lines: number,
  fileBytes: number,
  run: number,
): Promise<ImportRun> {
  const sourceId = await createBenchSource(context.ledger, context.tenantId, {
    name: `${format.name}-sql-${run}`,
    account: format.account,
    format: format.sourceFormat,
  });
  const measured = await measureWithPostgres(context, () =>
    loadLinesBySql(context.baselinePool, context.tenantId, sourceId, format, lines, fileBytes),
  );
  return runOf(format, 'sql', run, measured);
}

async function measureFormat(
  context: ImportContext,
  config: BenchConfig,
  log: BenchLog,
  format: StatementFormat,
  directory: string,
): Promise<{ runs: ImportRun[]; fileBytes: number }> {
  const lines = config.importLines[format.name];
  const file = join(directory, `${format.name}-${lines}`);
  await writeStatementFile(file, format, lines);
  const fileBytes = (await stat(file)).size;
  const runs: ImportRun[] = [];
  for (let run = 1; run <= config.runCount; run++) {
    // Alternate which goes first, so drift in machine noise hits both alike.
    const order = run % 2 === 1 ? (['ledger', 'sql'] as const) : (['sql', 'ledger'] as const);
    for (const mode of order) {
      await context.ledger.database.sql.query('CHECKPOINT');
      const measured =
        mode === 'ledger'
          ? await importThroughLedger(context, format, file, run)
          : await importThroughSql(context, format, lines, fileBytes, run);
      if (measured.lines !== lines)
        throw new Error(`${format.name} ${mode} run ${run}: stored ${measured.lines} lines, expected ${lines}`);
      log(
        `import ${format.name} ${mode} run ${run}/${config.runCount}: ${measured.linesPerSecond.toFixed(0)} lines/s ` +
          `(${measured.seconds.toFixed(2)} s, RSS +${measured.rssGrowthMiB} MiB)`,
      );
      runs.push(measured);
    }
  }
  await rm(file);
  return { runs, fileBytes };
}

export async function runImportSuite(config: BenchConfig, log: BenchLog): Promise<ImportResults> {
  return withInProcessSuite(config, 'import', async ({ databaseName, ledger, baselinePool, directory }) => {
    const tenantId = await createBenchTenant(ledger, 'import bench');
    for (const format of STATEMENT_FORMATS)
      await createBenchAccount(ledger, tenantId, {
        code: format.account,
        currency: format.currency,
        normalBalance: 'debit',
      });
    const context: ImportContext = { ledger, baselinePool, tenantId, databaseName };
    const results: ImportResults = { lines: config.importLines, fileBytes: {}, runs: [], comparisons: [] };
    for (const format of STATEMENT_FORMATS) {
      const { runs, fileBytes } = await measureFormat(context, config, log, format, directory);
      results.runs.push(...runs);
      results.fileBytes[format.name] = fileBytes;
      const rates = (mode: ImportRun['mode']) =>
        runs.filter((run) => run.mode === mode).map((run) => run.linesPerSecond);
      const cpuPerLine = runs.filter((run) => run.mode === 'ledger').map((run) => (run.cpuSeconds * 1e6) / run.lines);
      // The camt.053 file has one line per entry (Ntry): its lines/s are entries/s.
      const csv = format.name === 'csv';
      results.comparisons.push(
        compare({
          suite: 'import',
          workload: csv
            ? `gateway CSV, ${config.importLines.csv} lines`
            : `camt.053, ${config.importLines.camt053} entries (one line each)`,
          unit: csv ? 'lines/s' : 'entries/s',
          ledgerPath: 'ImportStatementUseCase',
          ledgerRuns: rates('ledger'),
          baselineRuns: rates('sql'),
          ledgerCpuMicrosPerUnitRuns: cpuPerLine,
        }),
      );
    }
    return results;
  });
}
