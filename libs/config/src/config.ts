import { availableParallelism } from 'node:os';
import cron from 'node-cron';
import { z } from 'zod';
import { EDGE_SETTINGS, type EdgeConfig, edgeConfigOf } from './edge-config';

/** API processes one start may run on its port (node:cluster); more would only add contention. */
export const API_PROCESSES_MAX = 64;

// The one place that reads process.env: validated once at boot, passed explicitly afterwards.
const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DATABASE_READ_URL: z.string().url().optional(),
  LEDGER_READ_CONSISTENCY_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  LEDGER_REPLICA_LAG_MAX_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  LEDGER_ANALYZE_CHECK_SECONDS: z.coerce.number().int().min(0).max(3_600).default(1),
  LEDGER_DATA_DIR: z.string().min(1).default('./.data'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  API_PROCESSES: z.coerce.number().int().min(1).max(API_PROCESSES_MAX).optional(),
  NODE_ENV: z.string().optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  LEDGER_ADMIN_TOKEN: z.string().min(16).optional(),
  NATS_URL: z.string().optional(),
  NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('LEDGER'),
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('ledger'),
  LEDGER_OUTBOX_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(168),
  LEDGER_OUTBOX_LAG_WARN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  LEDGER_WEBHOOK_ATTEMPTS_MAX: z.coerce.number().int().min(1).max(50).default(12),
  LEDGER_WEBHOOK_BACKOFF_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  LEDGER_WEBHOOK_BACKOFF_CAP_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400_000)
    .default(6 * 3_600_000),
  LEDGER_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  LEDGER_WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  LEDGER_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(50),
  LEDGER_WEBHOOK_SUBSCRIPTION_CONCURRENCY_MAX: z.coerce.number().int().min(1).max(100).default(2),
  LEDGER_WEBHOOK_TENANT_CONCURRENCY_MAX: z.coerce.number().int().min(1).max(1_000).default(10),
  LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX: z.coerce.number().int().min(1).max(10_000).default(25),
  LEDGER_WEBHOOK_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1_000).default(5),
  LEDGER_WEBHOOK_BREAKER_PARK_BASE_MS: z.coerce.number().int().min(1).max(86_400_000).default(60_000),
  LEDGER_WEBHOOK_BREAKER_PARK_CAP_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  LEDGER_WEBHOOK_SECRET_GRACE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  RECONCILE_RUN_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  RECONCILE_CRON: z
    .string()
    .default('*/15 * * * *')
    .refine((expression) => cron.validate(expression), { message: 'not a cron expression' }),
  LEDGER_SIGNING_KEY: z.string().optional(),
  LEDGER_WORKER_IN_PROCESS: z.enum(['true', 'false']).optional(),
  LEDGER_DEMO_DATA: z.enum(['true', 'false']).optional(),
  PROVIDER_SIM_PORT: z.coerce.number().int().min(1).max(65_535).default(4100),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).optional(),
  LEDGER_METRICS_TOKEN: z
    .string()
    .regex(/^[!-~]{16,200}$/, '16 to 200 printable characters')
    .optional(),
  LEDGER_METRICS_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  LEDGER_PROOFS_PER_MINUTE_MAX: z.coerce.number().int().min(1).max(1000).default(6),
  ...EDGE_SETTINGS,
});

/** Who may read /metrics and the outbox figures, and how often the database is asked for them. */
export interface MetricsConfig {
  /** A bearer token for the scraper; the operator token is accepted too. Unset: the operator token only. */
  token: string | undefined;
  /** Figures read from the database are reused for this long, however often the endpoint is scraped. */
  cacheSeconds: number;
}

/** How events leave: the relay (NATS or none), the outbox's upkeep and webhooks. */
export interface EventDeliveryConfig {
  /** Undefined: no broker; events stay in the pull feed and go to webhooks. */
  /**
   * `url`: one server, or a comma-separated list of a cluster's servers (any reachable one is used);
   * `replicas`: the stream's copies when it is created (a JetStream cluster keeps it on that many servers).
   */
  nats: { url: string; stream: string; subjectPrefix: string; replicas: number } | undefined;
  outboxRetentionHours: number;
  /** An unpublished event older than this makes /health warn (a stuck relay). */
  outboxLagWarnSeconds: number;
  webhooks: {
    /** Allow targets on loopback, private, link-local and similar ranges (tests, closed networks). */
    allowPrivateTargets: boolean;
    attemptsMax: number;
    backoffBaseMs: number;
    backoffCapMs: number;
    /** The whole exchange with an endpoint; a delivery's lease is this plus a margin. */
    timeoutMs: number;
    /** Until the TCP connection is up: short, so an unreachable endpoint gives its slot back soon. */
    connectTimeoutMs: number;
    /** Deliveries in flight at once in one worker. */
    concurrency: number;
    /** Deliveries in flight at once per subscription and per tenant, across all workers. */
    subscriptionConcurrencyMax: number;
    tenantConcurrencyMax: number;
    /** Subscriptions a tenant may have. */
    subscriptionsMax: number;
    /**
     * The circuit breaker: after this many failed attempts in a row a subscription is parked (nothing
     * is sent to it) for the base time, doubled at each further failure up to the cap; when the park
     * ends one delivery probes the endpoint, and a success closes the breaker.
     */
    breakerFailures: number;
    breakerParkBaseMs: number;
    breakerParkCapMs: number;
    /** How long a rotated-out secret keeps signing beside the new one. */
    secretGraceHours: number;
  };
}

export interface AppConfig {
  /** PostgreSQL connection string; undefined means the embedded PGlite database. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /**
   * A streaming replica (DATABASE_READ_URL) that read-only routes read from: a read carrying a consistency
   * token waits up to `consistencyWaitMs` for it, and one lagging past `lagMaxMs` is bypassed.
   */
  readReplica: { url: string; consistencyWaitMs: number; lagMaxMs: number } | undefined;
  /** How often a serving process analyzes the tables that doubled since their last analyze; 0: never. */
  analyzeCheckSeconds: number;
  dataDir: string;
  port: number;
  host: string;
  /**
   * API processes serving the one port (node:cluster), all stateless. Default: one per core in production
   * (NODE_ENV=production with DATABASE_URL), else one; the embedded database allows only one.
   */
  apiProcesses: number;
  adminToken: string | undefined;
  natsUrl: string | undefined;
  reconcileCron: string;
  /** A reconciliation run whose process stopped beating this long ago is given up, so the next can start. */
  reconcileRunLeaseSeconds: number;
  events: EventDeliveryConfig;
  /** Ed25519 private key (PEM, or base64 PKCS#8) that signs balance proofs; embedded mode generates one. */
  signingKey: string | undefined;
  /** Run the background jobs inside the API process (default in embedded mode). */
  workerInProcess: boolean;
  /** Load the demo tenant on first start (default in embedded mode). */
  demoData: boolean;
  /** Where the demo starts the payment provider simulator its connector pays through. */
  demoProviderPort: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Requests per second and burst per API key in each API process; 0 per second turns it off. */
  rateLimit: { perSecond: number; burst: number };
  metrics: MetricsConfig;
  /** New balance proofs a tenant may have issued per minute (a reused one does not count). */
  proofsPerMinuteMax: number;
  /** Limits per tenant, per client address and per upload; the inbound body limit; the proxy trusted. */
  edge: EdgeConfig;
}

export class ConfigError extends Error {}

function defaultApiProcesses(embedded: boolean, nodeEnvironment: string | undefined): number {
  if (embedded || nodeEnvironment !== 'production') return 1;
  return Math.min(availableParallelism(), API_PROCESSES_MAX);
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const embedded = values.DATABASE_URL === undefined;
  if (embedded && values.API_PROCESSES !== undefined && values.API_PROCESSES > 1) {
    throw new ConfigError(
      'invalid configuration: API_PROCESSES above 1 needs DATABASE_URL: the embedded database lives in one process',
    );
  }
  if (embedded && values.DATABASE_READ_URL !== undefined) {
    throw new ConfigError('invalid configuration: DATABASE_READ_URL needs DATABASE_URL: a replica is of a primary');
  }
  return {
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    readReplica:
      values.DATABASE_READ_URL === undefined
        ? undefined
        : {
            url: values.DATABASE_READ_URL,
            consistencyWaitMs: values.LEDGER_READ_CONSISTENCY_WAIT_MS,
            lagMaxMs: values.LEDGER_REPLICA_LAG_MAX_MS,
          },
    analyzeCheckSeconds: values.LEDGER_ANALYZE_CHECK_SECONDS,
    dataDir: values.LEDGER_DATA_DIR,
    port: values.PORT,
    host: values.HOST,
    apiProcesses: values.API_PROCESSES ?? defaultApiProcesses(embedded, values.NODE_ENV),
    adminToken: values.LEDGER_ADMIN_TOKEN,
    natsUrl: values.NATS_URL,
    reconcileCron: values.RECONCILE_CRON,
    reconcileRunLeaseSeconds: values.RECONCILE_RUN_LEASE_SECONDS,
    events: {
      nats:
        values.NATS_URL === undefined
          ? undefined
          : {
              url: values.NATS_URL,
              stream: values.NATS_STREAM,
              subjectPrefix: values.NATS_SUBJECT_PREFIX,
              replicas: values.NATS_STREAM_REPLICAS,
            },
      outboxRetentionHours: values.LEDGER_OUTBOX_RETENTION_HOURS,
      outboxLagWarnSeconds: values.LEDGER_OUTBOX_LAG_WARN_SECONDS,
      webhooks: {
        allowPrivateTargets: values.LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
        attemptsMax: values.LEDGER_WEBHOOK_ATTEMPTS_MAX,
        backoffBaseMs: values.LEDGER_WEBHOOK_BACKOFF_BASE_MS,
        backoffCapMs: values.LEDGER_WEBHOOK_BACKOFF_CAP_MS,
        timeoutMs: values.LEDGER_WEBHOOK_TIMEOUT_MS,
        connectTimeoutMs: values.LEDGER_WEBHOOK_CONNECT_TIMEOUT_MS,
        concurrency: values.LEDGER_WEBHOOK_CONCURRENCY,
        subscriptionConcurrencyMax: values.LEDGER_WEBHOOK_SUBSCRIPTION_CONCURRENCY_MAX,
        tenantConcurrencyMax: values.LEDGER_WEBHOOK_TENANT_CONCURRENCY_MAX,
        subscriptionsMax: values.LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX,
        breakerFailures: values.LEDGER_WEBHOOK_BREAKER_FAILURES,
        breakerParkBaseMs: values.LEDGER_WEBHOOK_BREAKER_PARK_BASE_MS,
        breakerParkCapMs: values.LEDGER_WEBHOOK_BREAKER_PARK_CAP_MS,
        secretGraceHours: values.LEDGER_WEBHOOK_SECRET_GRACE_HOURS,
      },
    },
    signingKey: values.LEDGER_SIGNING_KEY,
    workerInProcess:
      values.LEDGER_WORKER_IN_PROCESS === undefined ? embedded : values.LEDGER_WORKER_IN_PROCESS === 'true',
    demoData: values.LEDGER_DEMO_DATA === undefined ? embedded : values.LEDGER_DEMO_DATA === 'true',
    demoProviderPort: values.PROVIDER_SIM_PORT,
    logLevel: values.LOG_LEVEL,
    rateLimit: {
      perSecond: values.RATE_LIMIT_PER_SECOND,
      burst: values.RATE_LIMIT_BURST ?? 2 * values.RATE_LIMIT_PER_SECOND,
    },
    metrics: { token: values.LEDGER_METRICS_TOKEN, cacheSeconds: values.LEDGER_METRICS_CACHE_SECONDS },
    proofsPerMinuteMax: values.LEDGER_PROOFS_PER_MINUTE_MAX,
    edge: edgeConfigOf(values, values.RATE_LIMIT_PER_SECOND),
  };
}
