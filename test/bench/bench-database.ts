import pg from 'pg';

// Bench and soak databases live on the local server beside everyone else's: each has its own name,
// is created empty, and is dropped when the run ends (unless asked to keep it).

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertDatabaseName(name: string, setting: string): void {
  if (!IDENTIFIER.test(name)) throw new Error(`${setting}=${name}: not a plain lower-case identifier`);
}

export function databaseUrlFor(adminDatabaseUrl: string, databaseName: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function onServer(adminDatabaseUrl: string, work: (admin: pg.Client) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/** Drops (if present) and creates the database; answers its URL. */
export async function recreateDatabase(adminDatabaseUrl: string, databaseName: string): Promise<string> {
  assertDatabaseName(databaseName, 'database');
  // Identifiers cannot be bind parameters; the name was checked to be a plain identifier.
  await onServer(adminDatabaseUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${databaseName}`);
  });
  return databaseUrlFor(adminDatabaseUrl, databaseName);
}

export async function dropDatabase(adminDatabaseUrl: string, databaseName: string): Promise<void> {
  assertDatabaseName(databaseName, 'database');
  await onServer(adminDatabaseUrl, (admin) =>
    admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).then(() => undefined),
  );
}

/** A pool of the bench's own connections; an idle one that dies (the database dropped) is not a crash. */
export function benchPool(databaseUrl: string, max: number, applicationName: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, application_name: applicationName });
  pool.on('error', () => undefined);
  return pool;
}
