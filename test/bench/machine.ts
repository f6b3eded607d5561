import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { median } from './stats';

/** What the figures were measured on, recorded with them. */
export interface Machine {
  cpus: number;
  /** The CPU's name and clock as the kernel reports them. */
  cpuModel: string;
  /**
   * One thread's speed at JavaScript, in ms: the same fixed work each time, before the bench starts. The
   * hosts behind one machine name differ from day to day; this tells a slower host from a slower build.
   */
  javascriptReferenceMs: number;
  /** Of the machine's CPU time during the bench, the share the hypervisor gave to other guests (Linux). */
  stealShare?: number;
  /** 1-minute load average before the bench started: well above 0 means something else was running. */
  loadAverageAtStart: number;
  node: string;
  /** The API's Node version (BENCH_API_NODE), when it is not the bench's own. */
  apiNode?: string;
  postgres: string;
  postgresSettings: Record<string, string>;
}

/** Server settings that move these numbers. */
const SETTINGS = ['synchronous_commit', 'fsync', 'shared_buffers', 'autovacuum', 'max_connections'];

/** A posting-sized answer, written and read back as JSON: the kind of work the API spends its CPU on. */
function referenceWork(): number {
  let length = 0;
  for (let i = 0; i < 20_000; i++) {
    const view = {
      id: `0190f3c2-${i}`,
      status: 'posted',
      entries: [
        { account: `wallets:${i % 1000}`, amount: String(-100 - i), currency: 'USD' },
        { account: `wallets:${(i + 1) % 1000}`, amount: String(100 + i), currency: 'USD' },
      ],
      metadata: { order: i, note: 'reference' },
    };
    length += (JSON.parse(JSON.stringify(view)) as { entries: unknown[] }).entries.length;
  }
  return length;
}

/** The median of eleven timed rounds of the reference work, after one round untimed. */
function javascriptReferenceMs(): number {
  referenceWork();
  const rounds: number[] = [];
  for (let round = 0; round < 11; round++) {
    const started = performance.now();
    referenceWork();
    rounds.push(performance.now() - started);
  }
  return median(rounds);
}

/** The Node versions: the bench's, and the API's after it when that is another. */
export function nodeVersions(machine: Machine): string {
  return machine.apiNode === undefined ? machine.node : `${machine.node} (the API on ${machine.apiNode})`;
}

/** The CPU's model, with its clock when the kernel reports one. */
function describeCpu(): { cpus: number; cpuModel: string } {
  const all = cpus();
  const first = all[0];
  if (first === undefined) return { cpus: 0, cpuModel: 'unknown' };
  return { cpus: all.length, cpuModel: first.speed > 0 ? `${first.model} at ${first.speed} MHz` : first.model };
}

export async function describeMachine(
  adminDatabaseUrl: string,
  apiNode: string,
  loadAverageAtStart: number = loadavg()[0]!,
): Promise<Machine> {
  const apiNodeVersion = execFileSync(apiNode, ['--version'], { encoding: 'utf8' }).trim();
  const referenceMs = javascriptReferenceMs();
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    const version = (await client.query<{ version: string }>('SELECT version()')).rows[0]!.version.split(' on ')[0]!;
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name`,
      [SETTINGS],
    );
    return {
      ...describeCpu(),
      javascriptReferenceMs: referenceMs,
      loadAverageAtStart,
      node: process.version,
      ...(apiNodeVersion === process.version ? {} : { apiNode: apiNodeVersion }),
      postgres: version,
      postgresSettings: Object.fromEntries(rows.map((row) => [row.name, row.setting])),
    };
  } finally {
    await client.end();
  }
}
