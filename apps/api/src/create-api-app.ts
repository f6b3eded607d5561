import type { Server } from 'node:http';
import { type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { RateLimit } from '@ledger/auth';
import type { EdgeConfig, EventDeliveryConfig, MetricsConfig } from '@ledger/config';
import type { Database } from '@ledger/db';
import { ApiModule } from './api.module';
import { jsonBody } from './http/json-body';
import { jsonContentCheck } from './http/json-content.middleware';
import { consoleAssets } from './http/console-assets';
import { jsonOnly } from './http/json-only.middleware';
import { requestTargetCheck } from './http/request-target.middleware';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { postingMetrics } from './metrics/posting-metrics.middleware';
import { buildApiDocument } from './openapi/api-document';
import { INBOUND_PATH, PROVIDER_WEBHOOK_PATH, signedRawBody } from './http/raw-body';

/** Largest JSON body accepted; a batch of 1000 transfers fits with room to spare. */
export const REQUEST_BODY_BYTES_MAX = 2 * 1024 * 1024;

export interface ApiAppOptions {
  database: Database;
  operatorToken: string | undefined;
  /** Per API key; off when not given. */
  rateLimit?: RateLimit;
  /** Limits per tenant, per address and per upload; the inbound body limit; the proxy trusted. */
  edge: EdgeConfig;
  events: EventDeliveryConfig;
  /** Ed25519 private key (PEM) that signs balance proofs. */
  signingKey: string | undefined;
  logLevels?: LogLevel[];
  /** Where the built console is (dist/apps/console); unset: no console at /console. */
  consoleDir?: string;
  /** Reconciliation run lease; the documented default when not given. */
  runLeaseSeconds?: number;
  /** /metrics: its token and cache; without them the operator token only, figures kept 5 s. */
  metrics?: MetricsConfig;
  /** New balance proofs per tenant per minute; the documented default when not given. */
  proofsPerMinuteMax?: number;
}

/** `trust proxy` as Express takes it: a hop count, or addresses/names (`loopback`, CIDR lists). */
function trustProxySetting(value: string): number | string {
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * Node closes an idle connection after 5 s by default, sooner than most clients stop reusing one: a client
 * that sends after a pause meets a socket closing under it. The wait for a request's headers is kept longer
 * than the idle time, or it would end idle connections first (Node answers `Keep-Alive: timeout=N`).
 */
function keepConnectionsAlive(server: Server, seconds: number): void {
  server.keepAliveTimeout = seconds * 1000;
  server.headersTimeout = Math.max(server.headersTimeout, (seconds + 5) * 1000);
  if (server.requestTimeout > 0) server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);
}

export async function createApiApp(options: ApiAppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(options), {
    bodyParser: false,
    logger: options.logLevels ?? ['error', 'warn', 'log'],
  });
  app.disable('x-powered-by');
  // No ETag on answers: no route answers a conditional request, and Express would hash every body to make
  // one (a SHA-1 per posting). The console's files keep theirs (serve-static makes its own).
  app.set('etag', false);
  keepConnectionsAlive(app.getHttpServer() as Server, options.edge.keepAliveSeconds);
  if (options.edge.trustProxy !== undefined) app.set('trust proxy', trustProxySetting(options.edge.trustProxy));
  app.use(requestTargetCheck);
  if (options.consoleDir !== undefined) app.use('/console', consoleAssets(options.consoleDir));
  app.use('/v1/transactions', postingMetrics(app.get(LedgerMetrics)));
  app.use(jsonOnly);
  // Signed inbound messages and provider webhooks are read raw (small) and parsed only once their
  // signature verifies.
  app.use(INBOUND_PATH, signedRawBody(options.edge.inboundBodyBytesMax));
  app.use(PROVIDER_WEBHOOK_PATH, signedRawBody(options.edge.inboundBodyBytesMax));
  app.use(jsonBody(REQUEST_BODY_BYTES_MAX));
  app.use(jsonContentCheck);
  SwaggerModule.setup('docs', app, buildApiDocument(app));
  return app;
}
