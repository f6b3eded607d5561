import { sqlErrorFields } from './sql-client';

// A database that cannot be reached, or that dropped the connection (restarted, failed over, shutting
// down), is a passing condition: the request may be sent again as it was. These are the ways the two
// clients (node-postgres, Prisma Client on it) say so.

/** Socket errors of a connection attempt or of an open connection. */
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres raises these without a code when the server goes away under it. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /connection error and is not queryable/,
  /^Query read timeout/,
];

/**
 * Prisma: can't reach the server, timed out reaching it, operation timed out, server closed the
 * connection, no pool connection in time.
 */
const PRISMA_UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/**
 * SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57 operator intervention
 * (shutdown, starting up).
 */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08', '53', '57']);

/** Prisma's driver adapter kinds for the same conditions. */
const ADAPTER_UNREACHABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

const NESTING_DEPTH_MAX = 5;

function saysUnavailable(error: object): boolean {
  const { code, message, kind } = error as { code?: unknown; message?: unknown; kind?: unknown };
  if (typeof code === 'string' && (SOCKET_ERROR_CODES.has(code) || PRISMA_UNREACHABLE_CODES.has(code))) return true;
  if (typeof kind === 'string' && ADAPTER_UNREACHABLE_KINDS.has(kind)) return true;
  const sql = sqlErrorFields(error);
  if (sql && UNAVAILABLE_SQLSTATE_CLASSES.has(sql.code.slice(0, 2))) return true;
  return (
    typeof message === 'string' &&
    typeof code !== 'string' &&
    PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))
  );
}

/** What an error wraps: its `cause`, or (Prisma Client) the driver adapter's error with the server's SQLSTATE. */
function wrapped(error: object): unknown {
  const adapterError = (error as { meta?: { driverAdapterError?: { cause?: unknown } } }).meta?.driverAdapterError;
  return adapterError?.cause ?? (error as { cause?: unknown }).cause;
}

/**
 * Whether `error` (or what it wraps) means the database is unreachable right now, rather than a fault
 * of the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < NESTING_DEPTH_MAX && typeof current === 'object' && current !== null; depth++) {
    if (saysUnavailable(current)) return true;
    current = wrapped(current);
  }
  return false;
}
