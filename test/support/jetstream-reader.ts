import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** Every message a stream holds, in stream order, parsed as the relay's JSON events. */
export async function readStream(
  url: string,
  stream: string,
): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const connection = await connect({ servers: url });
  try {
    const manager = await jetstreamManager(connection);
    const info = await manager.streams.info(stream);
    const messages = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await manager.streams.getMessage(stream, { seq });
      if (!message) continue;
      messages.push({ subject: message.subject, msgId: message.header?.get('Nats-Msg-Id'), event: message.json() });
    }
    return messages;
  } finally {
    await connection.close();
  }
}

export async function deleteStream(url: string, stream: string): Promise<void> {
  const connection = await connect({ servers: url });
  try {
    const manager = await jetstreamManager(connection);
    await manager.streams.delete(stream).catch(() => undefined);
  } finally {
    await connection.close();
  }
}
