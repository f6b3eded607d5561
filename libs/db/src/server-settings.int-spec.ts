import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { createDatabase } from './database.factory';
import { serverSettingWarnings } from './server-settings';
import { type TestDatabase, createTestDatabase } from './test-database';

let server: TestDatabase;
let withoutCounts: Database;

beforeAll(async () => {
  server = await createTestDatabase(1);
  // track_counts can be turned off for one session; autovacuum, which needs it, only for the whole server.
  withoutCounts = await createDatabase({
    databaseUrl: `${server.url}?options=${encodeURIComponent('-c track_counts=off')}`,
    dataDir: '',
    poolSize: 1,
  });
});

afterAll(async () => {
  await withoutCounts.close();
  await server.drop();
});

describe('serverSettingWarnings', () => {
  it('warns when the tables would never be analyzed, and says what to do', async () => {
    const warnings = await serverSettingWarnings(withoutCounts.sql);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/autovacuum .* is off .* Turn it on, or run VACUUM ANALYZE regularly/);
  });

  it("follows the server's own settings otherwise", async () => {
    const [row] = await server.database.sql.query<{ on: boolean }>(
      "SELECT current_setting('autovacuum')::boolean AND current_setting('track_counts')::boolean AS on",
    );
    expect(await serverSettingWarnings(server.database.sql)).toHaveLength(row!.on ? 0 : 1);
  });
});
