import type { IncomingMessage, Server } from 'node:http';
import { type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { RateLimit } from '@ledger/auth';
import type { EdgeConfig, EventDeliveryConfig, MetricsConfig } from '@ledger/config';
import type { Database } from '@ledger/db';
import { ApiModule } from './api.module';
import { CONSOLE_PATH, serveConsole } from './http/console-assets';
import { readRequestBodies } from './http/request-bodies';
import { requestTargetCheck, withoutTrailingSlash } from './http/request-target';
import { answerRouterError } from './http/router-errors';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { postingMetrics } from './metrics/posting-metrics.hook';
import { buildApiDocument } from './openapi/api-document';

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

/** The trusted proxy: a hop count, or addresses/names (`loopback`, CIDR lists), comma-separated. */
function trustProxySetting(value: string): string | ((address: string, hop: number) => boolean) {
  if (!/^\d+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}

/**
 * How long a client may take to send a whole request, body included: Node's own default, which the API had
 * on Express. Fastify sets none, which would let a client that trickles its body hold a connection for
 * ever. A statement upload of the largest size (1 GiB) needs about 3.5 MB/s to arrive within it.
 */
export const REQUEST_MILLISECONDS_MAX = 300_000;

/**
 * Node closes an idle connection after 5 s by default, sooner than most clients stop reusing one: a client
 * that sends after a pause meets a socket closing under it. The wait for a request's headers is kept longer
 * than the idle time, or it would end idle connections first (Node answers `Keep-Alive: timeout=N`).
 */
function keepConnectionsAlive(server: Server, seconds: number): void {
  server.keepAliveTimeout = seconds * 1000;
  server.headersTimeout = Math.max(server.headersTimeout, (seconds + 5) * 1000);
  server.requestTimeout = Math.max(REQUEST_MILLISECONDS_MAX, server.headersTimeout);
}

/** Where the OpenAPI document and its viewer are served. */
const API_DOCS_PATH = '/docs';

/** Longer than any path parameter (an account code of 128 characters, percent-encoded, is at most 384). */
const PATH_PARAMETER_CHARACTERS_MAX = 1024;

/** The HTTP server: Nest on Fastify, reading bodies as `readRequestBodies` says. */
function httpAdapter(edge: EdgeConfig): FastifyAdapter {
  const adapter = new FastifyAdapter({
    ...(edge.trustProxy === undefined ? {} : { trustProxy: trustProxySetting(edge.trustProxy) }),
    frameworkErrors: answerRouterError,
    routerOptions: { maxParamLength: PATH_PARAMETER_CHARACTERS_MAX },
    rewriteUrl: (request: IncomingMessage) => withoutTrailingSlash(request.url ?? '/', [CONSOLE_PATH, API_DOCS_PATH]),
    // No Express-style middleware: what runs before the routes is Fastify's own hooks (createApiApp).
    skipMiddie: true,
  });
  readRequestBodies(adapter.getInstance(), {
    jsonBytesMax: REQUEST_BODY_BYTES_MAX,
    signedBytesMax: edge.inboundBodyBytesMax,
  });
  return adapter;
}

export async function createApiApp(options: ApiAppOptions): Promise<INestApplication> {
  const adapter = httpAdapter(options.edge);
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(options), adapter, {
    bodyParser: false,
    logger: options.logLevels ?? ['error', 'warn', 'log'],
  });
  keepConnectionsAlive(app.getHttpServer() as Server, options.edge.keepAliveSeconds);
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', requestTargetCheck);
  fastify.addHook('onRequest', postingMetrics(app.get(LedgerMetrics)));
  if (options.consoleDir !== undefined) serveConsole(fastify, options.consoleDir);
  SwaggerModule.setup(API_DOCS_PATH, app, buildApiDocument(app));
  return app;
}
