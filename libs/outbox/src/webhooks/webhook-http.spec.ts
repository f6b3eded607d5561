import { type ChildProcess, spawn } from 'node:child_process';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './webhook-http';

// A listener in a stopped process: the kernel completes as many handshakes as the backlog holds, and
// after that a connection attempt gets no answer at all, as with a host that drops packets.
const STALLED_LISTENER = `
const server = require('node:net').createServer(() => {});
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => process.stdout.write(server.address().port + '\\n'));`;
/** Connections that fill the stalled listener's queue (backlog 1 admits two) with room to spare. */
const FILLERS = 4;

let stalled: ChildProcess;
let stalledPort: number;
/** Every socket this test opened or accepted, destroyed at the end. */
const fillers: Socket[] = [];
let tarpit: Server;
let tarpitPort: number;

beforeAll(async () => {
  stalled = spawn(process.execPath, ['-e', STALLED_LISTENER]);
  stalledPort = await new Promise<number>((resolve) => stalled.stdout!.once('data', (data) => resolve(Number(data))));
  stalled.kill('SIGSTOP');
  for (let i = 0; i < FILLERS; i++) fillers.push(connect(stalledPort, '127.0.0.1').on('error', () => {}));
  tarpit = createServer((socket) => fillers.push(socket));
  await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
  tarpitPort = (tarpit.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of fillers) socket.destroy();
  stalled.kill('SIGKILL');
  await new Promise((resolve) => tarpit.close(resolve));
});

const options = { connectTimeoutMs: 300, responseTimeoutMs: 20_000, allowPrivate: true };

describe('postWebhook timeouts', () => {
  it('gives up on a connection that is never accepted after the connect timeout, not the response one', async () => {
    await expect(postWebhook(new URL(`http://127.0.0.1:${stalledPort}/hooks`), '{}', {}, options)).rejects.toThrow(
      'no connection within 300 ms',
    );
  });

  it('keeps waiting past the connect timeout once connected, until the response timeout', async () => {
    const sent = postWebhook(
      new URL(`http://127.0.0.1:${tarpitPort}/hooks`),
      '{}',
      {},
      {
        ...options,
        responseTimeoutMs: 900,
      },
    );
    await expect(sent).rejects.toThrow(/no answer within 900 ms|aborted/);
  });
});
