import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  type CollectedStatements,
  type CsvProfile,
  defaultCharset,
  isStatementCharset,
  type StatementCharset,
  type StatementFormat,
  type StatementInput,
} from '@ledger/imports';

// Vitest provides __dirname here (the tsconfig's CommonJS target rejects import.meta). This file lives in
// libs/imports/test, three levels below the repository root. The third-party samples: ./statement-samples.
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

function existing(directory: string, what: string): string {
  if (!existsSync(directory)) throw new Error(`${what} not found at ${directory}; the tests expect it there`);
  return directory;
}

export const OWN_FIXTURES = existing(path.resolve(REPO_ROOT, 'fixtures', 'statements'), 'fixtures/statements');

/** The file as a stream in small chunks, so that every parser is exercised across chunk boundaries. */
export function fileInput(file: string, chunkBytes = 97): StatementInput {
  return createReadStream(file, { highWaterMark: chunkBytes });
}

export const GATEWAY_HEADER =
  'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description';

/**
 * A csv:gateway export of `rows` lines, made as it is read (never whole in memory). Line i nets
 * (i % 100).20: every full hundred lines nets 4970.00.
 */
export async function* generatedGatewayExport(rows: number): AsyncGenerator<string> {
  yield `${GATEWAY_HEADER}\n`;
  let batch = '';
  for (let index = 1; index <= rows; index += 1) {
    const units = index % 100;
    batch +=
      `txn_${index},2024-03-01 09:15:02,2024-03-03,usd,${units}.25,0.05,${units}.20,` +
      `charge,ch_${index},,Order ${index}\n`;
    if (index % 500 === 0) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
}

export async function* textInput(text: string, chunkChars = 7): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += chunkChars) yield text.slice(start, start + chunkChars);
}

/**
 * Fixture naming: .xml camt053, .sta mt940, .bai2 bai2, .gateway.csv / .bank.csv built-in profiles, .custom.csv
 * with <base>.profile.json; a name that starts with an interim format and a dash (`camt052-`, `camt054-`,
 * `mt942-`) is read in that format. A charset before the ending (`x.windows-1250.sta`) is the source's
 * charset; without one the format's default is used.
 */
export function fixtureFormat(file: string): {
  format: StatementFormat;
  charset: StatementCharset;
  csvProfiles?: Record<string, CsvProfile>;
} {
  const named = /\.([a-z0-9-]+)\.(sta|xml|bai2|(gateway|bank|custom)\.csv)$/.exec(file)?.[1];
  const charsetOf = (format: StatementFormat) =>
    named !== undefined && isStatementCharset(named) ? named : defaultCharset(format);
  const interim = /^(camt052|camt054|mt942)-/.exec(path.basename(file))?.[1] as StatementFormat | undefined;
  if (interim !== undefined) return { format: interim, charset: charsetOf(interim) };
  if (file.endsWith('.xml')) return { format: 'camt053', charset: charsetOf('camt053') };
  if (file.endsWith('.sta')) return { format: 'mt940', charset: charsetOf('mt940') };
  if (file.endsWith('.bai2')) return { format: 'bai2', charset: charsetOf('bai2') };
  if (file.endsWith('.gateway.csv')) return { format: 'csv:gateway', charset: charsetOf('csv:gateway') };
  if (file.endsWith('.bank.csv')) return { format: 'csv:bank', charset: charsetOf('csv:bank') };
  if (file.endsWith('.custom.csv')) {
    const profile = JSON.parse(readFileSync(file.replace(/\.custom\.csv$/, '.profile.json'), 'utf8')) as CsvProfile;
    return { format: 'csv:custom', charset: charsetOf('csv:custom'), csvProfiles: { custom: profile } };
  }
  throw new Error(`no format for fixture ${file}`);
}

/** Bigints as strings and raw copies left out: the shape stored in the fixtures' .expected.json files. */
export function comparable(collected: CollectedStatements): unknown {
  const lines = collected.lines.map(({ raw: _raw, ...line }) => line);
  return JSON.parse(
    JSON.stringify({ charset: collected.charset, statements: collected.statements, lines }, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    ),
  );
}

/** Heap in use after a full collection, so that garbage not yet collected does not count as held memory. */
export function retainedHeap(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
