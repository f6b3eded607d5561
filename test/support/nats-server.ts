import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

/** The shared NATS server (JetStream) the machine runs; .ci/run starts it when it is down. */
export const SHARED_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Found as .ci/run finds it: on PATH, else Debian's /usr/sbin/nats-server. */
export function natsServerBinary(): string {
  const candidates = [
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nats-server')),
    '/usr/sbin/nats-server',
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('nats-server not found on PATH nor in /usr/sbin (apt-get install nats-server)');
  return found;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => resolve(socket.end() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

/** A nats-server of the test's own (JetStream, a temporary store), which the test may stop and start. */
export interface PrivateNatsServer {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

export async function startPrivateNatsServer(): Promise<PrivateNatsServer> {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'ledger-nats-'));
  let child: ChildProcess | undefined;
  const server: PrivateNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      child = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
        stdio: 'ignore',
      });
      for (let tries = 0; tries < 100; tries++) {
        if (await accepts(port)) return;
        await sleep(50);
      }
      throw new Error(`nats-server did not start on port ${port}`);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async dispose() {
      await server.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
