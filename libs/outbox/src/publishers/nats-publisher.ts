import {
  type JetStreamClient,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { LedgerEvent } from '../outbox-event';
import type { EventPublisher } from './event-publisher';

export interface NatsPublisherOptions {
  /** One server, or a cluster's servers separated by commas: a connection opens to any that answers. */
  url: string;
  stream: string;
  /** Subjects are `<prefix>.<tenant id>.<event type>`; the stream captures `<prefix>.>`. */
  subjectPrefix: string;
  /** How long JetStream remembers a Nats-Msg-Id to drop a re-publish. */
  duplicateWindowMs: number;
  publishTimeoutMs: number;
  /** Copies of the stream when this publisher creates it (1 on a single server, 3 on a 3-node cluster). */
  replicas?: number;
}

/** The servers of a NATS_URL, which may list a cluster's. */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

export function eventSubject(prefix: string, event: Pick<LedgerEvent, 'tenantId' | 'type'>): string {
  return `${prefix}.${event.tenantId}.${event.type}`;
}

interface Session {
  connection: NatsConnection;
  client: JetStreamClient;
}

/**
 * JetStream publisher. Each event goes out with `Nats-Msg-Id` = event id, so a re-publish after a
 * crash between publish and mark is dropped by the stream. Any failure drops the connection; the
 * next publish reconnects (and re-creates the stream if it went missing).
 */
export class NatsEventPublisher implements EventPublisher {
  readonly name = 'nats';
  private session: Promise<Session> | undefined;

  constructor(private readonly options: NatsPublisherOptions) {}

  async publish(event: LedgerEvent): Promise<void> {
    try {
      this.session ??= this.open();
      const { client } = await this.session;
      await client.publish(eventSubject(this.options.subjectPrefix, event), JSON.stringify(event), {
        msgID: event.id,
        timeout: this.options.publishTimeoutMs,
        expect: { streamName: this.options.stream },
      });
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    const open = await session?.catch(() => undefined);
    await open?.connection.close().catch(() => undefined);
  }

  private async open(): Promise<Session> {
    const connection = await connect({
      servers: natsServers(this.options.url),
      timeout: this.options.publishTimeoutMs,
      reconnect: false,
    });
    try {
      await this.ensureStream(connection);
      return { connection, client: jetstream(connection, { timeout: this.options.publishTimeoutMs }) };
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  private async ensureStream(connection: NatsConnection): Promise<void> {
    const manager = await jetstreamManager(connection, { timeout: this.options.publishTimeoutMs });
    try {
      await manager.streams.info(this.options.stream);
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.code !== JetStreamApiCodes.StreamNotFound) throw error;
      await manager.streams.add({
        name: this.options.stream,
        subjects: [`${this.options.subjectPrefix}.>`],
        duplicate_window: nanos(this.options.duplicateWindowMs),
        num_replicas: this.options.replicas ?? 1,
      });
    }
  }
}
