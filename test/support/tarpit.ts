import { type Server, type Socket, createServer } from 'node:net';

/**
 * A TCP endpoint that accepts every connection, reads the request and never answers: the slowest
 * webhook receiver there is. It records which path each open connection asked for.
 */
export class Tarpit {
  private server: Server | undefined;
  private readonly open = new Map<Socket, string>();
  /** The most connections that were open at once, in total and per path. */
  peakOpen = 0;
  readonly peakOpenPerPath = new Map<string, number>();
  accepted = 0;

  async start(): Promise<string> {
    this.server = createServer((socket) => {
      this.accepted++;
      this.open.set(socket, '');
      socket.once('data', (chunk: Buffer) => {
        const path = /^POST (\S+)/.exec(chunk.toString())?.[1] ?? '';
        this.open.set(socket, path);
        this.peakOpen = Math.max(this.peakOpen, this.open.size);
        const onPath = [...this.open.values()].filter((each) => each === path).length;
        this.peakOpenPerPath.set(path, Math.max(this.peakOpenPerPath.get(path) ?? 0, onPath));
      });
      socket.on('close', () => this.open.delete(socket));
      socket.on('error', () => this.open.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Connections open now that have sent their request. */
  waiting(): number {
    return [...this.open.values()].filter((path) => path !== '').length;
  }

  /** Drops every open connection (the senders see a reset) and stops listening. */
  async stop(): Promise<void> {
    for (const socket of this.open.keys()) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server?.listening) await new Promise((resolve) => server.close(resolve));
  }
}
