import cron from 'node-cron';
import { z } from 'zod';

// The one place that reads process.env: validated once at boot, passed explicitly afterwards.
const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  LEDGER_DATA_DIR: z.string().min(1).default('./.data'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LEDGER_ADMIN_TOKEN: z.string().min(16).optional(),
  NATS_URL: z.string().optional(),
  RECONCILE_CRON: z.string().default('*/15 * * * *').refine((expression) => cron.validate(expression), { message: 'not a cron expression' }),
  LEDGER_SIGNING_KEY: z.string().optional(),
  LEDGER_WORKER_IN_PROCESS: z.enum(['true', 'false']).optional(),
  LEDGER_DEMO_DATA: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
});

export interface AppConfig {
  /** PostgreSQL connection string; undefined means the embedded PGlite database. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  port: number;
  host: string;
  adminToken: string | undefined;
  natsUrl: string | undefined;
  reconcileCron: string;
  /** Ed25519 private key (PEM, or base64 PKCS#8) that signs balance proofs; embedded mode generates one. */
  signingKey: string | undefined;
  /** Run the background jobs inside the API process (default in embedded mode). */
  workerInProcess: boolean;
  /** Load the demo tenant on first start (default in embedded mode). */
  demoData: boolean;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const embedded = values.DATABASE_URL === undefined;
  return {
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    dataDir: values.LEDGER_DATA_DIR,
    port: values.PORT,
    host: values.HOST,
    adminToken: values.LEDGER_ADMIN_TOKEN,
    natsUrl: values.NATS_URL,
    reconcileCron: values.RECONCILE_CRON,
    signingKey: values.LEDGER_SIGNING_KEY,
    workerInProcess: values.LEDGER_WORKER_IN_PROCESS === undefined ? embedded : values.LEDGER_WORKER_IN_PROCESS === 'true',
    demoData: values.LEDGER_DEMO_DATA === undefined ? embedded : values.LEDGER_DEMO_DATA === 'true',
    logLevel: values.LOG_LEVEL,
  };
}
