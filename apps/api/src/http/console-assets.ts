import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type NextFunction, type Request, type Response, Router, static as serveStatic } from 'express';
import { errorBody } from '@ledger/errors';

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

function securityHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

/** The built console (`npm run build` writes it), mounted at /console; a clear error when it was not built. */
export function consoleAssets(directory: string): Router {
  const router = Router();
  router.use(securityHeaders);
  if (!existsSync(join(directory, 'index.html'))) {
    router.use((_request: Request, response: Response) => {
      response.status(404).json(errorBody('NOT_FOUND', `the console is not built in ${directory}: run npm run build`));
    });
    return router;
  }
  router.use(
    serveStatic(directory, {
      index: 'index.html',
      redirect: true,
      // Built file names carry a content hash; index.html does not, so it is always revalidated.
      setHeaders: (response, path) =>
        response.setHeader(
          'Cache-Control',
          path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
        ),
    }),
  );
  return router;
}
