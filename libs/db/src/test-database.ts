import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase } from './database.factory';
import type { Database } from './database';
import { applyMigrations } from './migration-runner';
import { migrationsDirectory } from './migrations-directory';
import { PgSqlPool } from './pg-sql-pool';

// Integration tests: migrate once into a template database, then give each test file its own copy.
export const TEST_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_TEMPLATE_DATABASE = 'ledger_test_template';

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

export async function prepareTemplateDatabase(): Promise<void> {
  await onServer(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEST_TEMPLATE_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEST_TEMPLATE_DATABASE}`);
  });
  const pool = new PgSqlPool(new pg.Pool({ connectionString: urlFor(TEST_TEMPLATE_DATABASE), max: 1 }));
  try {
    await applyMigrations(pool, migrationsDirectory());
  } finally {
    await pool.close();
  }
}

export interface TestDatabase {
  url: string;
  database: Database;
  drop(): Promise<void>;
}

export async function createTestDatabase(poolSize = 20): Promise<TestDatabase> {
  const name = `ledger_test_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEST_TEMPLATE_DATABASE}`));
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
