import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminRoute } from './admin-routes';
import { BodyTooLarge, hasBearer, sendError } from './http-io';
import { paymentStatus, settlementReport, submitPayment } from './provider-routes';
import { SimProvider } from './sim-provider';
import type { SimSettings } from './sim-settings';

/** A withheld answer's socket is let go after this, so that a client that never gives up cannot pin it. */
export const WITHHELD_ANSWER_MS_MAX = 10 * 60_000;

export interface RunningProviderSim {
  /** `http://host:port`, with the port the system chose when settings.port was 0. */
  url: string;
  port: number;
  provider: SimProvider;
  close(): Promise<void>;
}

async function route(
  provider: SimProvider,
  settings: SimSettings,
  request: IncomingMessage,
  response: ServerResponse,
  withhold: (response: ServerResponse) => void,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://provider-sim');
  if (url.pathname.startsWith('/__sim/')) {
    if (!(await adminRoute(provider, request, url, response, settings.webhookSecret))) noRoute(response);
    return;
  }
  if (!url.pathname.startsWith('/v1/')) return noRoute(response);
  if (!hasBearer(request, settings.secret)) {
    return sendError(response, 401, 'UNAUTHENTICATED', 'Authorization: Bearer <secret> is missing or wrong');
  }
  const path = `${request.method} ${url.pathname}`;
  if (path === 'POST /v1/payments') return submitPayment(provider, request, response, withhold);
  if (path === 'GET /v1/payments') return paymentStatus(provider, url, response);
  if (path === 'GET /v1/reports/settlement') return settlementReport(provider, url, response);
  noRoute(response);
}

// Not NOT_FOUND: that code means "no payment under this key", and a wrong path must never read as that.
function noRoute(response: ServerResponse): void {
  sendError(response, 404, 'NO_ROUTE', 'no such endpoint');
}

/** Starts the simulator on settings.host:settings.port; tests pass port 0 and close it when done. */
export async function startProviderSim(
  settings: SimSettings,
  log: (message: string) => void = console.log,
): Promise<RunningProviderSim> {
  const provider = new SimProvider(settings, log);
  const withheld = new Map<ServerResponse, NodeJS.Timeout>();
  // Holding the socket open, rather than resetting it, is what a provider that executed and then stalled
  // looks like: the client sees its own timeout, not an error that might tempt it to read "not executed".
  const withhold = (response: ServerResponse) => {
    const timer = setTimeout(() => response.destroy(), WITHHELD_ANSWER_MS_MAX);
    withheld.set(response, timer);
    response.once('close', () => {
      clearTimeout(timer);
      withheld.delete(response);
    });
  };
  const server: Server = createServer((request, response) => {
    route(provider, settings, request, response, withhold).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof BodyTooLarge) {
        response.setHeader('connection', 'close');
        return sendError(response, 413, 'PAYLOAD_TOO_LARGE', error.message);
      }
      log(`provider-sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError(response, 500, 'INTERNAL', 'the simulator failed on this request');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host}:${port}`,
    port,
    provider,
    close: async () => {
      provider.close();
      for (const [response, timer] of withheld) {
        clearTimeout(timer);
        response.destroy();
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
