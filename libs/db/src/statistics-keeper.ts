import { Logger } from '@nestjs/common';
import pg from 'pg';

/** A table is analyzed once it holds this many rows, and again each time it has doubled since. */
export const ANALYZE_ROWS_MIN = 100;

const ANALYZE_GROWN_TABLES = 'SELECT t AS "table" FROM ledger_analyze_grown_tables($1) AS t';
const CONNECT_TIMEOUT_MS = 10_000;
/** An analyze samples a bounded number of rows, but on a large table with a cold cache it can take a while. */
const ANALYZE_TIMEOUT_MS = 300_000;

/**
 * Keeps the planner's statistics within a factor of two of the tables' sizes: every `intervalMs` it
 * calls ledger_analyze_grown_tables (see its migration for why: on a new database, the foreign-key
 * checks' plans made on near-empty tables slow every posting down as the tables grow, until an analyze
 * makes PostgreSQL replan them). On a connection of its own, so a busy pool never delays it. A check
 * that fails (the server restarting) is tried again at the next tick; it says so once, and once again
 * when a check succeeds.
 */
export class StatisticsKeeper {
  private readonly logger = new Logger('statistics');
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<string[]> | undefined;
  private failing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly intervalMs: number,
  ) {}

  /** A keeper on a connection of its own to the migrated database at `databaseUrl`, checking from now on. */
  static start(databaseUrl: string, intervalMs: number): StatisticsKeeper {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 1,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: ANALYZE_TIMEOUT_MS,
      application_name: 'ledger-statistics',
    });
    // An idle connection that dies (a restarted server) must not crash the process.
    pool.on('error', () => undefined);
    const keeper = new StatisticsKeeper(pool, intervalMs);
    keeper.begin();
    return keeper;
  }

  private begin(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  /** One check (or the one in progress): the tables it analyzed. */
  check(): Promise<string[]> {
    this.checking ??= this.analyzeGrownTables().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async analyzeGrownTables(): Promise<string[]> {
    try {
      const { rows } = await this.pool.query<{ table: string }>(ANALYZE_GROWN_TABLES, [ANALYZE_ROWS_MIN]);
      if (this.failing) this.logger.log('analyze check: working again');
      this.failing = false;
      const tables = rows.map((row) => row.table);
      if (tables.length > 0)
        this.logger.log(`analyzed ${tables.join(', ')}: doubled since the last analyze, or never analyzed`);
      return tables;
    } catch (error) {
      if (!this.failing) this.logger.warn(`analyze check failed, retried every ${this.intervalMs} ms: ${error}`);
      this.failing = true;
      return [];
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    await this.pool.end();
  }
}
