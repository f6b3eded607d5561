// The thin SQL layer under the hand-written queries (posting, idempotency, outbox, checks).
// Two drivers, one contract: node-postgres against a server, PGlite for the embedded database.

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

/** Runs parameterised SQL; int8 columns come back as bigint. */
export interface SqlExecutor {
  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlTransaction extends SqlExecutor {
  /** The driver's own handle (a pg client, a PGlite transaction), for Prisma Client to run on. */
  readonly connection: unknown;
  /** Runs a script of several statements without parameters (migrations). */
  execScript(script: string): Promise<void>;
  /**
   * Sends COMMIT now, behind the statements already sent, before their answers have arrived (see
   * Database.commitBehindSent); the pool then waits for it instead of sending its own. Where the driver
   * runs one statement at a time (PGlite), the pool commits when the work returns, as without it.
   */
  sendCommit(): void;
}

export interface SqlPool extends SqlExecutor {
  readonly driver: 'pg' | 'pglite';
  /** How many connections can be in use at once (the embedded database has one). */
  readonly connectionsMax: number;
  transaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The fields both drivers report for a database error. */
export interface SqlErrorFields {
  code: string;
  constraint?: string;
  detail?: string;
  message: string;
}

export function sqlErrorFields(error: unknown): SqlErrorFields | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as Partial<SqlErrorFields>;
  if (typeof candidate.code !== 'string' || !/^[0-9A-Z]{5}$/.test(candidate.code)) return undefined;
  return {
    code: candidate.code,
    constraint: candidate.constraint,
    detail: candidate.detail,
    message: candidate.message ?? '',
  };
}
