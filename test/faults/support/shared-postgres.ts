/** The machine's PostgreSQL (trust auth): the fault tests make databases of their own on it. */
export const SHARED_ADMIN_DATABASE_URL =
  process.env.FAULT_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
