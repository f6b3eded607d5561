import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '@ledger/imports';
import { CAMT_053, writeStatementFile } from './statement-files';

// Parse-only cost of a camt.053 entry: the import suite's generated file, parsed PARSE_RUNS times as the
// import reads it (streamed from the file, decoded, parsed, lines built), with no database. Prints each
// run's CPU microseconds per entry of this process and their median. The import suite's figure adds the
// storing path (hashing, column batches, pg) to this.
//
//   npm run compile && node --expose-gc dist/test/bench/camt-parse.js
//   PARSE_ENTRIES=100000 PARSE_RUNS=7 (defaults); node --cpu-prof ... for a profile of the same work.

const ENTRIES_MAX = 5_000_000;
const RUNS_MAX = 100;

function boundedFromEnv(name: string, fallback: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be 1 to ${max}`);
  return value;
}

async function parseOnce(file: string): Promise<{ lines: number; cpuMicros: number; seconds: number }> {
  global.gc?.();
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let lines = 0;
  for await (const item of parse('camt053', createReadStream(file, { highWaterMark: 256 * 1024 }))) {
    if (item.kind === 'line') lines += 1;
    else if (item.kind === 'error') throw new Error(`line ${item.lineNumber}: ${item.reason}`);
  }
  const used = process.cpuUsage(cpu);
  return { lines, cpuMicros: used.user + used.system, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
  const entries = boundedFromEnv('PARSE_ENTRIES', 100_000, ENTRIES_MAX);
  const runs = boundedFromEnv('PARSE_RUNS', 7, RUNS_MAX);
  const directory = await mkdtemp(join(tmpdir(), 'camt-parse-'));
  try {
    const file = join(directory, 'camt053.xml');
    await writeStatementFile(file, CAMT_053, entries);
    const perEntry: number[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const result = await parseOnce(file);
      if (result.lines !== entries) throw new Error(`parsed ${result.lines} lines, expected ${entries}`);
      const micros = result.cpuMicros / entries;
      perEntry.push(micros);
      console.log(
        `run ${run}/${runs}: ${micros.toFixed(2)} µs CPU/entry, ${(entries / result.seconds).toFixed(0)} entries/s`,
      );
    }
    const low = Math.min(...perEntry).toFixed(2);
    const high = Math.max(...perEntry).toFixed(2);
    console.log(
      `camt.053 parse only, ${entries} entries: median ${median(perEntry).toFixed(2)} µs CPU/entry (${low}-${high})`,
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
