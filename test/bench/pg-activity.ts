import type pg from 'pg';

// Samples pg_stat_activity during a run: how many of a mode's connections are, on average, inside a
// transaction but waiting for the application (idle in transaction), waiting for a row lock, or
// executing. For the hot account this shows what the lock holder spends its time on.

const SAMPLE_INTERVAL_MS = 50;

const SAMPLE = `
SELECT count(*) FILTER (WHERE state = 'idle in transaction')::int AS waiting_for_client,
       count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock')::int AS lock_wait,
       count(*) FILTER (WHERE state = 'active' AND wait_event_type IS DISTINCT FROM 'Lock')::int AS executing
  FROM pg_stat_activity
 WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`;

/** Mean number of the mode's connections in each state over the run (Little's law: time shares). */
export interface ConnectionStates {
  waitingForClient: number;
  lockWait: number;
  executing: number;
  samples: number;
}

export class ActivitySampler {
  private totals = { waitingForClient: 0, lockWait: 0, executing: 0 };
  private samples = 0;
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly applicationName: string,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const { rows } = await this.pool.query<{ waiting_for_client: number; lock_wait: number; executing: number }>(
          SAMPLE,
          [this.applicationName],
        );
        const row = rows[0]!;
        this.totals.waitingForClient += row.waiting_for_client;
        this.totals.lockWait += row.lock_wait;
        this.totals.executing += row.executing;
        this.samples++;
      } catch {
        // A missed sample only makes the means rougher.
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, SAMPLE_INTERVAL_MS));
    }
  }

  async stop(): Promise<ConnectionStates> {
    this.running = false;
    await this.loop;
    const mean = (total: number) => (this.samples === 0 ? Number.NaN : total / this.samples);
    return {
      waitingForClient: mean(this.totals.waitingForClient),
      lockWait: mean(this.totals.lockWait),
      executing: mean(this.totals.executing),
      samples: this.samples,
    };
  }
}
