import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { API_PROCESSES_MAX, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded database with the worker in process and demo data', () => {
    expect(loadConfig({})).toMatchObject({
      databaseUrl: undefined,
      port: 3000,
      workerInProcess: true,
      demoData: true,
      reconcileCron: '*/15 * * * *',
    });
  });

  it('with a database URL, runs neither the worker nor the demo unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1/ledger' })).toMatchObject({
      workerInProcess: false,
      demoData: false,
    });
  });

  it('reads from a replica only with DATABASE_READ_URL beside DATABASE_URL, waiting 1 s, bypassing at 10 s', () => {
    const url = 'postgresql://postgres@127.0.0.1/ledger';
    const readUrl = 'postgresql://postgres@127.0.0.2/ledger';
    expect(loadConfig({ DATABASE_URL: url }).readReplica).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: url, DATABASE_READ_URL: readUrl }).readReplica).toEqual({
      url: readUrl,
      consistencyWaitMs: 1_000,
      lagMaxMs: 10_000,
    });
    expect(
      loadConfig({
        DATABASE_URL: url,
        DATABASE_READ_URL: readUrl,
        LEDGER_READ_CONSISTENCY_WAIT_MS: '0',
        LEDGER_REPLICA_LAG_MAX_MS: '500',
      }).readReplica,
    ).toMatchObject({ consistencyWaitMs: 0, lagMaxMs: 500 });
    expect(() => loadConfig({ DATABASE_READ_URL: readUrl })).toThrow(/DATABASE_READ_URL needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_READ_URL: 'replica' })).toThrow(/DATABASE_READ_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, LEDGER_READ_CONSISTENCY_WAIT_MS: '60001' })).toThrow(
      /LEDGER_READ_CONSISTENCY_WAIT_MS/,
    );
  });

  it('runs one API process unless production on PostgreSQL (one per core) or API_PROCESSES says', () => {
    const url = 'postgresql://postgres@127.0.0.1/ledger';
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ DATABASE_URL: url }).apiProcesses).toBe(1);
    expect(loadConfig({ DATABASE_URL: url, NODE_ENV: 'production' }).apiProcesses).toBe(
      Math.min(availableParallelism(), API_PROCESSES_MAX),
    );
    expect(loadConfig({ DATABASE_URL: url, NODE_ENV: 'production', API_PROCESSES: '3' }).apiProcesses).toBe(3);
    expect(loadConfig({ API_PROCESSES: '1' }).apiProcesses).toBe(1);
    // The embedded database is one process's: a second could not open it.
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(/API_PROCESSES above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, API_PROCESSES: '0' })).toThrow(/API_PROCESSES/);
    expect(() => loadConfig({ DATABASE_URL: url, API_PROCESSES: '65' })).toThrow(/API_PROCESSES/);
  });

  it('checks every second for tables to analyze, or as often as LEDGER_ANALYZE_CHECK_SECONDS says (0: never)', () => {
    expect(loadConfig({}).analyzeCheckSeconds).toBe(1);
    expect(loadConfig({ LEDGER_ANALYZE_CHECK_SECONDS: '0' }).analyzeCheckSeconds).toBe(0);
    expect(loadConfig({ LEDGER_ANALYZE_CHECK_SECONDS: '30' }).analyzeCheckSeconds).toBe(30);
    expect(() => loadConfig({ LEDGER_ANALYZE_CHECK_SECONDS: '0.5' })).toThrow(/LEDGER_ANALYZE_CHECK_SECONDS/);
    expect(() => loadConfig({ LEDGER_ANALYZE_CHECK_SECONDS: '3601' })).toThrow(/LEDGER_ANALYZE_CHECK_SECONDS/);
  });

  it('gives a silent reconciliation run up after ten minutes, or the lease set', () => {
    expect(loadConfig({}).reconcileRunLeaseSeconds).toBe(600);
    expect(loadConfig({ RECONCILE_RUN_LEASE_SECONDS: '3' }).reconcileRunLeaseSeconds).toBe(3);
    expect(() => loadConfig({ RECONCILE_RUN_LEASE_SECONDS: '0' })).toThrow(/RECONCILE_RUN_LEASE_SECONDS/);
  });

  it('keeps /metrics for a token (the operator token alone by default), its figures 5 s, proofs 6 a minute', () => {
    expect(loadConfig({})).toMatchObject({ metrics: { token: undefined, cacheSeconds: 5 }, proofsPerMinuteMax: 6 });
    expect(
      loadConfig({
        LEDGER_METRICS_TOKEN: 'scraper-token-0123456789',
        LEDGER_METRICS_CACHE_SECONDS: '0',
        LEDGER_PROOFS_PER_MINUTE_MAX: '2',
      }),
    ).toMatchObject({ metrics: { token: 'scraper-token-0123456789', cacheSeconds: 0 }, proofsPerMinuteMax: 2 });
    expect(() => loadConfig({ LEDGER_METRICS_TOKEN: 'short' })).toThrow(/LEDGER_METRICS_TOKEN/);
    expect(() => loadConfig({ LEDGER_PROOFS_PER_MINUTE_MAX: '0' })).toThrow(/LEDGER_PROOFS_PER_MINUTE_MAX/);
  });

  it('names every bad setting', () => {
    expect(() => loadConfig({ PORT: 'eighty', RECONCILE_CRON: 'whenever' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', RECONCILE_CRON: 'whenever' })).toThrow(/PORT.*RECONCILE_CRON/);
  });

  it('publishes to NATS only when NATS_URL is set, and refuses private webhook targets unless allowed', () => {
    expect(loadConfig({}).events).toMatchObject({ nats: undefined, webhooks: { allowPrivateTargets: false } });
    expect(
      loadConfig({ NATS_URL: 'nats://127.0.0.1:4222', LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).events,
    ).toMatchObject({
      nats: { url: 'nats://127.0.0.1:4222', stream: 'LEDGER', subjectPrefix: 'ledger', replicas: 1 },
      webhooks: { allowPrivateTargets: true },
    });
    expect(() => loadConfig({ LEDGER_WEBHOOK_ATTEMPTS_MAX: '0' })).toThrow(/LEDGER_WEBHOOK_ATTEMPTS_MAX/);
  });

  it('bounds webhook delivery by default: timeouts, concurrency, subscriptions per tenant, the breaker', () => {
    expect(loadConfig({}).events.webhooks).toMatchObject({
      timeoutMs: 10_000,
      connectTimeoutMs: 3_000,
      concurrency: 50,
      subscriptionConcurrencyMax: 2,
      tenantConcurrencyMax: 10,
      subscriptionsMax: 25,
      breakerFailures: 5,
      breakerParkBaseMs: 60_000,
      breakerParkCapMs: 3_600_000,
    });
    expect(loadConfig({ LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX: '3' }).events.webhooks.subscriptionsMax).toBe(3);
    expect(() => loadConfig({ LEDGER_WEBHOOK_CONCURRENCY: '0' })).toThrow(/LEDGER_WEBHOOK_CONCURRENCY/);
  });

  it('limits a tenant to four keys, failed authentications to 30 a minute, uploads to 2 a key and 4 an address', () => {
    expect(loadConfig({}).edge).toMatchObject({
      tenantRateLimit: { perSecond: 8000, burst: 16_000 },
      authFailureLimit: { perAddressMax: 30, windowSeconds: 60 },
      uploads: { perKeyMax: 2, perAddressMax: 4 },
      inboundBodyBytesMax: 65_536,
      trustProxy: undefined,
      keepAliveSeconds: 75,
    });
    expect(loadConfig({ RATE_LIMIT_PER_SECOND: '0' }).edge.tenantRateLimit.perSecond).toBe(0);
    expect(loadConfig({ RATE_LIMIT_TENANT_PER_SECOND: '5' }).edge.tenantRateLimit).toEqual({ perSecond: 5, burst: 10 });
    expect(() => loadConfig({ LEDGER_INBOUND_BODY_BYTES_MAX: '3000000' })).toThrow(/LEDGER_INBOUND_BODY_BYTES_MAX/);
  });
});
