import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { parseWalPosition } from './wal-position';

export type ReplicaState = 'ok' | 'lagging' | 'down';

export interface ReplicaStatus {
  state: ReplicaState;
  /** How far behind the primary the replica is, in seconds (0: caught up); null while it does not answer. */
  lagSeconds: number | null;
}

/** How a read with a consistency token got its answer's source (see ReplicaMonitor.waitFor). */
export type ConsistencyWaitOutcome = 'immediate' | 'caught_up' | 'timed_out' | 'bypassed';

/** How often the background check looks at the replica and at the primary's WAL position. */
export const REPLICA_CHECK_INTERVAL_MS = 1_000;
/** While reads wait for a consistency token, how often one shared query asks how far the replica replayed. */
export const REPLAY_POLL_INTERVAL_MS = 5;
/** Reads of one process waiting for the replica at once; beyond, a token read goes to the primary at once. */
export const CONSISTENCY_WAITERS_MAX = 10_000;
/** Primary positions remembered to measure the lag, one per check; when full, the oldest stay (lag keeps growing). */
const LAG_SAMPLES_MAX = 1_000;

const REPLAY_POSITION = 'SELECT pg_last_wal_replay_lsn()::text AS replayed';

interface Waiter {
  position: bigint;
  settle(outcome: ConsistencyWaitOutcome): void;
}

/**
 * Watches the streaming replica from the background: every second it reads the primary's WAL position
 * and how far the replica has replayed. The lag is the age of the oldest primary position seen that the
 * replica has not replayed yet: measured on this process's clock alone, 0 when the replica has replayed
 * everything seen (an idle primary does not look like a lagging replica), and accurate to one check.
 * A replica that does not answer is `down`, one further behind than `lagMaxMs` is `lagging`; both are
 * bypassed. Reads waiting for a consistency token share one poller rather than each asking the replica.
 */
export class ReplicaMonitor {
  private state: ReplicaState = 'down';
  private lagSeconds: number | null = null;
  /** The furthest position the replica was seen to have replayed; -1 when unknown. */
  private replayed = -1n;
  private samples: { position: bigint; seenAtMs: number }[] = [];
  private readonly waiters = new Set<Waiter>();
  private polling = false;
  private checking = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** A small pool of its own, so that a busy read pool never delays the check. */
    private readonly replica: pg.Pool,
    private readonly primaryPosition: () => Promise<bigint>,
    private readonly lagMaxMs: number,
  ) {}

  /** Checks once (the first answer decides whether reads may start on the replica), then every second. */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_INTERVAL_MS);
    this.timer.unref();
    await this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.settleAll('bypassed');
    await this.replica.end();
  }

  get status(): ReplicaStatus {
    return { state: this.state, lagSeconds: this.lagSeconds };
  }

  get usable(): boolean {
    return this.state === 'ok';
  }

  /** A read found the replica unreachable: it is bypassed until a check finds it answering again. */
  markDown(): void {
    this.state = 'down';
    this.lagSeconds = null;
    this.replayed = -1n;
    this.samples = [];
    this.settleAll('bypassed');
  }

  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      let primary: bigint;
      try {
        primary = await this.primaryPosition();
      } catch {
        // The primary not answering is /health's failure; the replica's state is left as it was.
        return;
      }
      let replayed: bigint;
      try {
        replayed = await this.replayPosition();
      } catch {
        this.markDown();
        return;
      }
      this.measureLag(primary, replayed, Date.now());
    } finally {
      this.checking = false;
    }
  }

  /**
   * Whether the replica has replayed up to `position`, waiting at most `timeoutMs`: `immediate` (it had
   * already), `caught_up` (it did while waiting), `timed_out`, or `bypassed` (not usable, or too many wait).
   */
  waitFor(position: bigint, timeoutMs: number): Promise<ConsistencyWaitOutcome> {
    if (this.state !== 'ok') return Promise.resolve('bypassed');
    if (this.replayed >= position) return Promise.resolve('immediate');
    if (this.waiters.size >= CONSISTENCY_WAITERS_MAX) return Promise.resolve('bypassed');
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        settle: (outcome) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(outcome);
        },
      };
      const timer = setTimeout(() => waiter.settle('timed_out'), timeoutMs);
      this.waiters.add(waiter);
      void this.poll();
    });
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0) {
        try {
          await this.replayPosition();
        } catch {
          this.markDown();
          return;
        }
        for (const waiter of this.waiters) if (waiter.position <= this.replayed) waiter.settle('caught_up');
        if (this.waiters.size > 0) await sleep(REPLAY_POLL_INTERVAL_MS);
      }
    } finally {
      this.polling = false;
    }
  }

  private async replayPosition(): Promise<bigint> {
    const { rows } = await this.replica.query<{ replayed: string | null }>(REPLAY_POSITION);
    const text = rows[0]?.replayed;
    const position = text == null ? undefined : parseWalPosition(text);
    // A server that replays no WAL is not a standby (a primary, a promoted replica): never read from it.
    if (position === undefined) throw new Error('DATABASE_READ_URL names a server that is not a standby');
    if (position > this.replayed) this.replayed = position;
    return position;
  }

  private measureLag(primary: bigint, replayed: bigint, nowMs: number): void {
    if (this.samples.length < LAG_SAMPLES_MAX) this.samples.push({ position: primary, seenAtMs: nowMs });
    this.samples = this.samples.filter((sample) => sample.position > replayed);
    const lagMs = this.samples.length === 0 ? 0 : nowMs - this.samples[0]!.seenAtMs;
    this.lagSeconds = lagMs / 1000;
    this.state = lagMs > this.lagMaxMs ? 'lagging' : 'ok';
    if (this.state === 'lagging') this.settleAll('bypassed');
  }

  private settleAll(outcome: ConsistencyWaitOutcome): void {
    for (const waiter of this.waiters) waiter.settle(outcome);
  }
}
