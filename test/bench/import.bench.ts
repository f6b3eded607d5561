import 'reflect-metadata';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DatabaseModule, type SqlExecutor, applyMigrations, createDatabase, migrationsDirectory, newId } from '@ledger/db';
import { CreateSourceUseCase, ImportStatementUseCase, ImportsModule } from '@ledger/imports';
import { CreateAccountUseCase, LedgerModule, createAccountSchema } from '@ledger/ledger';
import { freshBenchDatabase } from './bench-database';
import { processCpuMs } from './cpu-usage';

// Import throughput and memory: generated files of growing size, imported in this process through the
// same use case the API and CLI run, with the peak resident memory sampled while each import runs.
const DATABASE = process.env.BENCH_IMPORT_DATABASE ?? 'ledger_bench_import';
const CSV_ROWS = (process.env.BENCH_IMPORT_CSV_ROWS ?? '100000,1000000').split(',').map(Number);
const CAMT_ENTRIES = Number(process.env.BENCH_IMPORT_CAMT_ENTRIES ?? '100000');
const MEMORY_SAMPLE_MS = 50;

async function writeLines(path: string, header: string, count: number, line: (index: number) => string, footer = ''): Promise<void> {
  const out = createWriteStream(path);
  out.write(header);
  for (let index = 0; index < count; index++) {
    if (!out.write(line(index))) await once(out, 'drain');
  }
  out.end(footer);
  await once(out, 'finish');
}

const day = (index: number) => `2024-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;

function gatewayCsv(path: string, rows: number) {
  return writeLines(path, 'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description\n', rows, (index) => {
    const gross = 1000 + (index % 9000);
    const fee = 30 + (index % 70);
    const money = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    return `txn_${index},${day(index)} 10:00:00,${day(index)} 00:00:00,usd,${money(gross)},${money(fee)},${money(gross - fee)},charge,ch_${index},,Order ${index}\n`;
  });
}

function camt053(path: string, entries: number) {
  // Entry i credits 100 + i cents, so the closing balance is known before writing them.
  const total = (BigInt(entries) * BigInt(entries - 1)) / 2n + BigInt(entries) * 100n;
  const header = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2024-12-31T18:00:00Z</CreDtTm></GrpHdr>
<Stmt><Id>BENCH-1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-01-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${total / 100n}.${String(total % 100n).padStart(2, '0')}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-12-31</Dt></Dt></Bal>\n`;
  const footer = `</Stmt></BkToCstmrStmt></Document>\n`;
  return writeLines(path, header, entries, (index) => {
    const minor = 100 + index;
    return `<Ntry><NtryRef>E${index}</NtryRef><Amt Ccy="EUR">${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${day(index)}</Dt></BookgDt><ValDt><Dt>${day(index)}</Dt></ValDt><AcctSvcrRef>ASR${index}</AcctSvcrRef><BkTxCd><Prtry><Cd>NTRF</Cd></Prtry></BkTxCd><NtryDtls><TxDtls><Refs><EndToEndId>E2E${index}</EndToEndId></Refs><RmtInf><Ustrd>Invoice ${index}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`;
  }, footer);
}


/** CPU used so far by each server process of the bench database (a connection opened later counts from 0). */
async function backendsCpuMs(sql: SqlExecutor): Promise<Map<number, number>> {
  const rows = await sql.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return new Map(rows.map((row) => [row.pid, processCpuMs(row.pid)]));
}

async function main(): Promise<void> {
  const url = await freshBenchDatabase(DATABASE);
  const database = await createDatabase({ databaseUrl: url, dataDir: '', poolSize: 4 });
  await applyMigrations(database.sql, migrationsDirectory());
  @Module({ imports: [DatabaseModule.forRoot(database), LedgerModule, ImportsModule] })
  class ImportBenchModule {}
  const app = await NestFactory.createApplicationContext(ImportBenchModule, { logger: ['error'] });
  const tenantId = newId();
  await database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'import bench']);
  for (const [code, currency] of [['assets:gateway', 'USD'], ['assets:bank', 'EUR']]) {
    await app.get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse({ code, currency, normalBalance: 'debit' }) });
  }
  await app.get(CreateSourceUseCase).execute({ tenantId, name: 'gateway', account: 'assets:gateway', format: 'csv:gateway' });
  await app.get(CreateSourceUseCase).execute({ tenantId, name: 'bank', account: 'assets:bank', format: 'camt053' });
  const directory = await mkdtemp(join(tmpdir(), 'import-bench-'));
  const rows: string[] = [];
  try {
    const files: { label: string; path: string; source: string; lines: number; make: () => Promise<void> }[] = [
      ...CSV_ROWS.map((count) => ({ label: `gateway CSV, ${count} rows`, path: join(directory, `gateway-${count}.csv`), source: 'gateway', lines: count, make: () => gatewayCsv(join(directory, `gateway-${count}.csv`), count) })),
      { label: `camt.053, ${CAMT_ENTRIES} entries`, path: join(directory, 'camt.xml'), source: 'bank', lines: CAMT_ENTRIES, make: () => camt053(join(directory, 'camt.xml'), CAMT_ENTRIES) },
    ];
    for (const file of files) {
      await file.make();
      const bytes = (await stat(file.path)).size;
      global.gc?.();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), MEMORY_SAMPLE_MS);
      const cpuBefore = { node: process.cpuUsage(), postgres: await backendsCpuMs(database.sql) };
      const started = process.hrtime.bigint();
      const result = await app.get(ImportStatementUseCase).execute({ tenantId, source: file.source, input: createReadStream(file.path, { highWaterMark: 256 * 1024 }) });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const nodeCpu = process.cpuUsage(cpuBefore.node);
      let postgresCpuMs = 0;
      for (const [pid, cpuMs] of await backendsCpuMs(database.sql)) postgresCpuMs += cpuMs - (cpuBefore.postgres.get(pid) ?? 0);
      clearInterval(sampler);
      if (result.import.lines !== file.lines) throw new Error(`${file.label}: imported ${result.import.lines} lines, expected ${file.lines}`);
      rows.push(`| ${file.label} | ${(bytes / 1024 / 1024).toFixed(1)} MiB | ${result.import.lines} | ${seconds.toFixed(1)} | ${Math.round(result.import.lines / seconds)} | ${((peak - baseline) / 1024 / 1024).toFixed(0)} MiB | ${(peak / 1024 / 1024).toFixed(0)} MiB | ${((nodeCpu.user + nodeCpu.system) / result.import.lines).toFixed(1)} | ${((postgresCpuMs * 1000) / result.import.lines).toFixed(1)} |`);
      console.error(rows.at(-1));
      await rm(file.path);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
    await app.close();
    await database.close();
  }
  const report = [
    '# Import bench',
    '',
    'Generated files imported through ImportStatementUseCase (parse, dedupe, store in one transaction) into PostgreSQL on this machine.',
    'Peak RSS is sampled every 50 ms during the import; "growth" is the peak over the RSS just before it.',
    'CPU µs per line: this Node process, and the PostgreSQL backends connected to the bench database (from /proc),',
    'less sensitive than seconds to what else runs on the machine.',
    '',
    '| file | size | lines | seconds | lines/s | RSS growth | peak RSS | Node CPU µs/line | PostgreSQL CPU µs/line |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  await writeFile(join('bench-results', 'import.md'), report).catch(() => undefined);
  console.log(report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
