import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '@ledger/errors';

/**
 * The console's policy: its own scripts, styles and API only; no inline script or style, no framing,
 * nothing from another origin (the console ships everything it needs).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/** Built file names carry a content hash; index.html does not, so it is always revalidated (by its ETag). */
function consoleHeaders(reply: FastifyReply, path: string): void {
  void reply.headers({
    'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
  });
}

/**
 * Serves the built console (`npm run build` writes it) at /console/, /console redirecting there; a clear
 * 404 on every console path when it was not built.
 */
export function serveConsole(fastify: FastifyInstance, directory: string): void {
  if (!existsSync(join(directory, 'index.html'))) {
    const notBuilt = async () => {
      throw new DomainError('NOT_FOUND', `the console is not built in ${directory}: run npm run build`);
    };
    fastify.get(CONSOLE_PATH, notBuilt);
    fastify.get(`${CONSOLE_PATH}/*`, notBuilt);
    return;
  }
  void fastify.register(fastifyStatic, {
    root: directory,
    prefix: CONSOLE_PATH,
    index: 'index.html',
    redirect: true,
    decorateReply: false,
    cacheControl: false,
    setHeaders: consoleHeaders,
  });
}
