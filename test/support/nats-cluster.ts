import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsServers } from '@ledger/outbox';
import { freePort } from './free-port';
import { natsServerBinary } from './nats-server';

const CLUSTER_NAME = 'ledger-test';
const READY_TIMEOUT_MS = 30_000;

/** One node of a private JetStream cluster on loopback: its client URL, and a way to kill it. */
export interface ClusterNode {
  name: string;
  url: string;
  running: boolean;
  kill(): Promise<void>;
}

export interface PrivateNatsCluster {
  nodes: ClusterNode[];
  /** Every node's client URL, comma-separated, as NATS_URL takes a cluster. */
  url: string;
  dispose(): Promise<void>;
}

async function ports(count: number): Promise<number[]> {
  const found = new Set<number>();
  while (found.size < count) found.add(await freePort());
  return [...found];
}

/** Waits until the cluster has a JetStream meta leader (account info answers), through `url`. */
async function waitForJetStream(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await connect({ servers: natsServers(url), timeout: 2_000 });
      try {
        await (await jetstreamManager(connection, { timeout: 2_000 })).getAccountInfo();
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      last = error;
      await sleep(200);
    }
  }
  throw new Error(`the NATS cluster did not elect a JetStream leader in ${READY_TIMEOUT_MS} ms: ${String(last)}`);
}

/** `size` nats-server processes with JetStream, routed to each other on loopback, each with its own store. */
export async function startPrivateNatsCluster(size = 3): Promise<PrivateNatsCluster> {
  const clientPorts = await ports(size);
  const routePorts = await ports(size);
  const store = await mkdtemp(join(tmpdir(), 'ledger-nats-cluster-'));
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  const children: ChildProcess[] = [];
  const nodes: ClusterNode[] = clientPorts.map((port, index) => {
    const name = `node-${index + 1}`;
    const child = spawn(
      natsServerBinary(),
      ['-a', '127.0.0.1', '-p', String(port), '-n', name, '-js', '-sd', join(store, name)].concat([
        '--cluster_name',
        CLUSTER_NAME,
        '--cluster',
        `nats://127.0.0.1:${routePorts[index]}`,
        '--routes',
        routes,
      ]),
      { stdio: 'ignore' },
    );
    children.push(child);
    const node: ClusterNode = {
      name,
      url: `nats://127.0.0.1:${port}`,
      running: true,
      async kill() {
        if (!node.running) return;
        node.running = false;
        const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
        child.kill('SIGKILL');
        await exited;
      },
    };
    return node;
  });
  const cluster: PrivateNatsCluster = {
    nodes,
    url: nodes.map((node) => node.url).join(','),
    async dispose() {
      await Promise.all(nodes.map((node) => node.kill()));
      await rm(store, { recursive: true, force: true });
    },
  };
  try {
    await waitForJetStream(cluster.url);
  } catch (error) {
    await cluster.dispose();
    throw error;
  }
  return cluster;
}
