import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase } from './database.factory';
import type { Database } from './database';
import { applyMigrations } from './migration-runner';
import { migrationsDirectory } from './migrations-directory';
import { PgSqlPool } from './pg-sql-pool';

// Integration tests: migrate once into a template database, then give each test file its own copy.
export const TEST_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

// One template per test run (named in the environment the test workers inherit), so that two runs
// on one machine never drop each other's template.
const TEMPLATE_ENV = 'LEDGER_TEST_TEMPLATE_DATABASE';

function templateDatabase(): string {
  const name = process.env[TEMPLATE_ENV];
  if (name === undefined)
    throw new Error(`${TEMPLATE_ENV} is not set: run integration tests through vitest's global setup`);
  return name;
}

function urlFor(database: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates and migrates this run's template database; returns a function that drops it again. */
export async function prepareTemplateDatabase(): Promise<() => Promise<void>> {
  const template = `ledger_test_${randomBytes(5).toString('hex')}`;
  process.env[TEMPLATE_ENV] = template;
  await onServer((client) => client.query(`CREATE DATABASE ${template}`));
  const pool = new PgSqlPool(new pg.Pool({ connectionString: urlFor(template), max: 1 }));
  try {
    await applyMigrations(pool, migrationsDirectory());
  } finally {
    await pool.close();
  }
  return () =>
    onServer(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)));
}

export interface TestDatabase {
  url: string;
  database: Database;
  drop(): Promise<void>;
}

export async function createTestDatabase(poolSize = 20): Promise<TestDatabase> {
  const template = templateDatabase();
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = urlFor(name);
  const database = await createDatabase({ databaseUrl: url, dataDir: '', poolSize });
  return {
    url,
    database,
    async drop() {
      await database.close();
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
