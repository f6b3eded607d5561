// The suite's sizes, bounded for CI (about three minutes in all); raise them for a longer local run.

function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

export const FAULT_SETTINGS = {
  /** How long the clients keep posting while processes are killed. */
  loadSeconds: setting('FAULT_LOAD_SECONDS', 15, 1, 3600),
  /** SIGKILLs of the API or the worker during that time. */
  kills: setting('FAULT_KILLS', 4, 1, 1000),
  /** Concurrent posting clients. */
  clients: setting('FAULT_CLIENTS', 6, 1, 64),
  /** PostgreSQL immediate stops during the database test's load. */
  postgresRestarts: setting('FAULT_PG_RESTARTS', 2, 1, 100),
  /**
   * Payment orders the payment test creates while processes are killed. At most 1,000: the simulator
   * lists at most that many payments (GET /__sim/payments), and the test checks them all.
   */
  paymentOrders: setting('FAULT_PAYMENT_ORDERS', 300, 10, 1_000),
  /** Lines of the CSV the import test uploads (and kills the API during). */
  importLines: setting('FAULT_IMPORT_LINES', 30_000, 1_000, 5_000_000),
};
