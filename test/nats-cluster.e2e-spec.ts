import type { INestApplicationContext } from '@nestjs/common';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsServers } from '@ledger/outbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { readStream } from './support/jetstream-reader';
import { type TestTenant, createAccount, postTransaction, seededTenant, transfer } from './support/ledger-fixtures';
import { type PrivateNatsCluster, startPrivateNatsCluster } from './support/nats-cluster';
import { outboxIds, testStream, waitUntil } from './support/relay-fixtures';
import { startWorker } from './support/worker-harness';

// The relay publishes to a stream replicated on a three-node JetStream cluster (NATS_URL lists the
// nodes, NATS_STREAM_REPLICAS=3). The node leading the stream is killed with -9 in the middle of the
// postings: the relay carries on through the others, and every committed event is in the stream once.

const POSTINGS = 240;
const CLIENTS = 4;
const RELAY_CATCH_UP_MS = 60_000;

let cluster: PrivateNatsCluster;
let api: ApiHarness;
let worker: INestApplicationContext;
const names = testStream();

async function streamInfo(url: string): Promise<StreamInfo> {
  const connection = await connect({ servers: natsServers(url), timeout: 2_000 });
  try {
    return await (await jetstreamManager(connection, { timeout: 5_000 })).streams.info(names.stream);
  } finally {
    await connection.close();
  }
}

async function streamLeader(url: string): Promise<string | undefined> {
  try {
    return (await streamInfo(url)).cluster?.leader;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  cluster = await startPrivateNatsCluster(3);
  api = await startApi();
  worker = await startWorker(api, {
    NATS_URL: cluster.url,
    NATS_STREAM: names.stream,
    NATS_SUBJECT_PREFIX: names.subjectPrefix,
    NATS_STREAM_REPLICAS: '3',
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await api?.close();
  await cluster?.dispose();
});

describe('the relay on a three-node JetStream cluster', () => {
  it('loses no event and publishes none twice when the stream leader is killed under load', async () => {
    const tenant: TestTenant = await seededTenant(api, 'cluster');
    await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });

    let posted = 0;
    let killed: string | undefined;
    const failures: number[] = [];
    const client = async () => {
      while (posted < POSTINGS) {
        posted++;
        const answer = await postTransaction(api, tenant.posterKey, transfer('assets:cash', 'equity:seed', '100'));
        if (answer.status !== 201) failures.push(answer.status);
      }
    };
    const killer = async () => {
      // Once a third is posted and the stream has a leader, that node goes (kill -9).
      await waitUntil(
        async () => posted >= POSTINGS / 3 && (await streamLeader(cluster.url)) !== undefined,
        30_000,
        'a stream leader',
      );
      killed = await streamLeader(cluster.url);
      await cluster.nodes.find((node) => node.name === killed)!.kill();
    };
    await Promise.all([...Array.from({ length: CLIENTS }, client), killer()]);
    expect(failures).toEqual([]);
    expect(killed).toBeDefined();

    await waitUntil(
      async () => (await outboxIds(api, tenant.tenantId)).every((event) => event.published),
      RELAY_CATCH_UP_MS,
      'the relay published every event',
    );
    const survivors = cluster.nodes.filter((node) => node.running);
    expect(survivors).toHaveLength(2);
    // The JetStream API may not answer while the survivors elect a new meta leader (the killed node may
    // have been it too): asked again until it does, as a client would.
    const survivorsUrl = survivors.map((node) => node.url).join(',');
    const info = await vi.waitFor(() => streamInfo(survivorsUrl), { timeout: 60_000, interval: 200 });
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.leader).not.toBe(killed);

    const committed = (await outboxIds(api, tenant.tenantId)).map((event) => event.id);
    expect(committed.length).toBeGreaterThanOrEqual(POSTINGS);
    const messages = await readStream(survivors[0]!.url, names.stream);
    const ids = messages.map((message) => message.msgId);
    const ofTenant = messages.filter((message) => message.event.tenantId === tenant.tenantId).map((m) => m.event.id);
    expect(new Set(ids).size, 'no event twice in the stream').toBe(ids.length);
    expect([...ofTenant].sort()).toEqual([...committed].sort());
    console.log(
      `cluster: ${committed.length} events committed, ${ofTenant.length} in the stream, leader ${killed} killed ` +
        `after ${POSTINGS / 3}+ postings, new leader ${info.cluster?.leader}`,
    );
  }, 180_000);
});
