import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable';
import type { ConsistencyWaitOutcome, ReplicaMonitor, ReplicaStatus } from './replica-monitor';
import { sqlErrorFields } from './sql-client';

export type ReadSource = 'replica' | 'primary';

/** Where the statements of one read-only request go; a read that fell back to the primary says so here. */
export interface ReadRoute {
  servedBy: ReadSource;
}

export interface ReadReplicaOptions {
  /** Connection string of a streaming replica (hot standby) of the primary. */
  url: string;
  /** How long a read with a consistency token waits for the replica before the primary serves it. */
  consistencyWaitMs: number;
  /** A replica further behind than this is bypassed for every read. */
  lagMaxMs: number;
}

/**
 * SQLSTATEs after which a statement sent to the replica is sent to the primary instead: a write on a
 * read-only route (25006, a standby refuses it), and a query the standby cancelled because the WAL it
 * replays removed rows the query still needed (40001, a recovery conflict).
 */
const PRIMARY_INSTEAD_SQLSTATES = new Set(['25006', '40001']);

/**
 * The streaming replica that read-only requests read from. A request's read intent (`read`) is ambient,
 * as a transaction is: while it lasts, every statement outside a transaction, whether Database.query's
 * or Prisma Client's, goes to the replica (TransactionAwarePgPool routes them); transactions always run on
 * the primary. A statement the replica cannot answer is run on the primary, and so is the rest of the request.
 */
export class ReadReplica {
  private readonly intent = new AsyncLocalStorage<ReadRoute>();
  private readonly readListeners: ((servedBy: ReadSource) => void)[] = [];
  private readonly waitListeners: ((outcome: ConsistencyWaitOutcome) => void)[] = [];
  private tokenInFlight: Promise<string> | undefined;
  private tokenQueued: Promise<string> | undefined;

  constructor(
    /** The replica's read pool. */
    readonly pool: pg.Pool,
    private readonly monitor: ReplicaMonitor,
    private readonly consistencyWaitMs: number,
    /** The primary's current WAL position, as PostgreSQL writes it. */
    private readonly primaryPosition: () => Promise<string>,
  ) {}

  get status(): ReplicaStatus {
    return this.monitor.status;
  }

  /**
   * Runs a read-only request's work: on the replica when it is usable and, given a consistency token
   * (a WAL position), once it has replayed that far (waiting at most LEDGER_READ_CONSISTENCY_WAIT_MS);
   * otherwise on the primary. `work` sees the route, which says where it was served in the end.
   */
  async read<T>(after: bigint | undefined, work: (route: ReadRoute) => Promise<T>): Promise<T> {
    const route: ReadRoute = { servedBy: await this.sourceFor(after) };
    try {
      return await this.intent.run(route, () => work(route));
    } finally {
      for (const listener of this.readListeners) listener(route.servedBy);
    }
  }

  /** The current read's route when it goes to the replica (TransactionAwarePgPool asks, per statement). */
  get replicaRoute(): ReadRoute | undefined {
    const route = this.intent.getStore();
    return route?.servedBy === 'replica' ? route : undefined;
  }

  /** Whether a statement that failed on the replica is run on the primary instead (the rest of the read too). */
  primaryInstead(route: ReadRoute, error: unknown): boolean {
    const unavailable = isDatabaseUnavailable(error);
    if (!unavailable && !PRIMARY_INSTEAD_SQLSTATES.has(sqlErrorFields(error)?.code ?? '')) return false;
    if (unavailable) this.monitor.markDown();
    route.servedBy = 'primary';
    return true;
  }

  /**
   * The primary's WAL position now: taken after a write's transaction committed, it is the consistency
   * token a later read waits for. Callers at the same moment share a query, but only one that started
   * after they asked (one in flight may have started before their commit).
   */
  consistencyToken(): Promise<string> {
    if (this.tokenInFlight === undefined) return this.readToken();
    this.tokenQueued ??= this.tokenInFlight
      .catch(() => undefined)
      .then(() => {
        this.tokenQueued = undefined;
        return this.readToken();
      });
    return this.tokenQueued;
  }

  onRead(listener: (servedBy: ReadSource) => void): void {
    this.readListeners.push(listener);
  }

  onConsistencyWait(listener: (outcome: ConsistencyWaitOutcome) => void): void {
    this.waitListeners.push(listener);
  }

  async close(): Promise<void> {
    await this.monitor.stop();
    await this.pool.end();
  }

  private async sourceFor(after: bigint | undefined): Promise<ReadSource> {
    if (after === undefined) return this.monitor.usable ? 'replica' : 'primary';
    const outcome = await this.monitor.waitFor(after, this.consistencyWaitMs);
    for (const listener of this.waitListeners) listener(outcome);
    return outcome === 'immediate' || outcome === 'caught_up' ? 'replica' : 'primary';
  }

  private readToken(): Promise<string> {
    const reading = this.primaryPosition().finally(() => {
      if (this.tokenInFlight === reading) this.tokenInFlight = undefined;
    });
    this.tokenInFlight = reading;
    return reading;
  }
}
