import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';

/** What the figures were measured on, recorded with them. */
export interface Machine {
  cpus: number;
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

/** The Node versions: the bench's, and the API's after it when that is another. */
export function nodeVersions(machine: Machine): string {
  return machine.apiNode === undefined ? machine.node : `${machine.node} (the API on ${machine.apiNode})`;
}

export async function describeMachine(
  adminDatabaseUrl: string,
  apiNode: string,
  loadAverageAtStart: number = loadavg()[0]!,
): Promise<Machine> {
  const apiNodeVersion = execFileSync(apiNode, ['--version'], { encoding: 'utf8' }).trim();
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    const version = (await client.query<{ version: string }>('SELECT version()')).rows[0]!.version.split(' on ')[0]!;
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name`,
      [SETTINGS],
    );
    return {
      cpus: cpus().length,
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
