import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { RateLimit } from '@ledger/auth';
import { loadConfig } from '@ledger/config';
import { type TestDatabase, createTestDatabase, openMigratedDatabase } from '@ledger/db';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { type Answer, type RequestOptions, requestJson } from './http-json';

export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789';
/** A proof signing key made for this test run only. */
export const TEST_SIGNING_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** The console as `npm run build` (which `npm test` runs first) leaves it. */
export const BUILT_CONSOLE_DIR = resolve(__dirname, '..', '..', 'dist', 'apps', 'console');

/** What `npm start` runs on: PGlite in a fresh temporary data directory, removed afterwards. */
async function embeddedTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ledger-embedded-'));
  const { database } = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
  return {
    url: '',
    database,
    async drop() {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database the test made itself (a private server, say), migrated here and left to the test to remove. */
async function ownDatabase(url: string, options: Parameters<typeof openMigratedDatabase>[0]): Promise<TestDatabase> {
  const { database } = await openMigratedDatabase(options);
  return { url, database, drop: () => database.close() };
}

/**
 * The real HTTP server on a random loopback port, on a fresh PostgreSQL database of its own (or `embedded`:
 * PGlite, as `npm start`; or `postgres`: a database the test names, with its read replica if given).
 */
export interface ApiHarness {
  baseUrl: string;
  db: TestDatabase;
  app: INestApplication;
  close(): Promise<void>;
  /** A new tenant with an admin key, through the operator endpoint. */
  createTenant(name?: string): Promise<{ tenantId: string; adminKey: string }>;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/** What `request` answers (the shared JSON request helper's answer). */
export type ApiResponse = Answer;

/**
 * `rateLimit` per API key: off unless a test is about it (so is the one per tenant and the one on failed
 * authentications, unless `settings` set them). `settings` are environment variables as the
 * configuration reads them (e.g. allowing webhook targets on loopback, where the tests' receivers
 * listen); everything else has its documented default.
 */
export async function startApi(
  options: {
    poolSize?: number;
    rateLimit?: RateLimit;
    settings?: Record<string, string>;
    embedded?: boolean;
    /** Another API process on this one's database (it stays open when this one closes). */
    sharing?: ApiHarness;
    /** DATABASE_URL and DATABASE_READ_URL of a database the test made (migrated here, closed by close()). */
    postgres?: { url: string; readUrl?: string };
  } = {},
): Promise<ApiHarness> {
  const own = options.sharing === undefined;
  // Limits are off unless a test is about them: the per-key one (and so the tenant's), failed authentications.
  const config = loadConfig({
    RATE_LIMIT_PER_SECOND: '0',
    AUTH_FAILURES_PER_ADDRESS_MAX: '0',
    ...options.settings,
    ...(options.postgres === undefined
      ? {}
      : { DATABASE_URL: options.postgres.url, DATABASE_READ_URL: options.postgres.readUrl }),
  });
  const db =
    options.sharing?.db ??
    (options.postgres !== undefined
      ? await ownDatabase(options.postgres.url, {
          databaseUrl: config.databaseUrl,
          dataDir: '',
          poolSize: options.poolSize ?? 20,
          readReplica: config.readReplica,
        })
      : options.embedded
        ? await embeddedTestDatabase()
        : await createTestDatabase(options.poolSize ?? 20));
  const { events, metrics, proofsPerMinuteMax } = config;
  const app = await createApiApp({
    database: db.database,
    operatorToken: TEST_OPERATOR_TOKEN,
    rateLimit: options.rateLimit,
    edge: config.edge,
    events,
    signingKey: TEST_SIGNING_KEY,
    metrics,
    proofsPerMinuteMax,
    logLevels: ['error'],
    consoleDir: BUILT_CONSOLE_DIR,
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const harness: ApiHarness = {
    baseUrl,
    db,
    app,
    async close() {
      await app.close();
      if (own) await db.drop();
    },
    request(method, path, options = {}) {
      return requestJson(baseUrl, method, path, options);
    },
    async createTenant(name = 'test tenant') {
      const created = await harness.request('POST', '/v1/tenants', { key: TEST_OPERATOR_TOKEN, body: { name } });
      if (created.status !== 201)
        throw new Error(`tenant creation failed: ${created.status} ${JSON.stringify(created.body)}`);
      return { tenantId: created.body.tenant.id, adminKey: created.body.apiKey };
    },
  };
  return harness;
}
