import http, { type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_MILLISECONDS_MAX } from '../apps/api/src/create-api-app';
import { type ApiHarness, startApi } from './support/api-harness';

// A client that keeps connections alive and sends again after a pause must find its connection open:
// with Node's default (5 s idle) the server closed it first, and the next request failed with
// "socket hang up" / "other side closed" on the client's side, one per connection after every pause.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

interface Exchange {
  status: number;
  keepAlive: string;
  reusedSocket: boolean;
}

function getHealth(agent: http.Agent): Promise<Exchange> {
  const url = new URL('/health', api.baseUrl);
  return new Promise((resolveExchange, reject) => {
    const request = http.get({ agent, hostname: url.hostname, port: url.port, path: url.pathname }, (response) => {
      response.resume();
      response.on('end', () =>
        resolveExchange({
          status: response.statusCode ?? 0,
          keepAlive: String(response.headers['keep-alive']),
          reusedSocket: request.reusedSocket,
        }),
      );
    });
    request.on('error', reject);
  });
}

describe('kept-alive connections', () => {
  it('stay open across a pause longer than Node’s default idle timeout, and say for how long', async () => {
    // Node's own agent keeps a free socket until the server closes it: it trusts the server's timeout.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getHealth(agent);
      expect(first).toMatchObject({ status: 200, keepAlive: 'timeout=75', reusedSocket: false });
      await sleep(6_000);
      const afterPause = await getHealth(agent);
      expect(afterPause).toMatchObject({ status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('give a client at most 5 minutes to send a whole request, as Node does by default', () => {
    const server = api.app.getHttpServer() as Server;
    expect(server.requestTimeout).toBe(REQUEST_MILLISECONDS_MAX);
    expect(REQUEST_MILLISECONDS_MAX).toBe(300_000);
  });
});
