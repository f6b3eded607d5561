import { cpus, loadavg } from 'node:os';
import pg from 'pg';

/** What the figures were measured on, recorded with them. */
export interface Machine {
  cpus: number;
  /** 1-minute load average before the bench started: well above 0 means something else was running. */
  loadAverageAtStart: number;
  node: string;
  postgres: string;
  postgresSettings: Record<string, string>;
}

/** Server settings that move these numbers. */
const SETTINGS = ['synchronous_commit', 'fsync', 'shared_buffers', 'autovacuum', 'max_connections'];

export async function describeMachine(
  adminDatabaseUrl: string,
  loadAverageAtStart: number = loadavg()[0]!,
): Promise<Machine> {
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
      postgres: version,
      postgresSettings: Object.fromEntries(rows.map((row) => [row.name, row.setting])),
    };
  } finally {
    await client.end();
  }
}
