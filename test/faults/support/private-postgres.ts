import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/free-port';

const run = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The newest installed server version's binaries (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBinaries(): string {
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0)
    throw new Error(`no PostgreSQL server under ${POSTGRES_ROOT} (apt-get install postgresql)`);
  return join(POSTGRES_ROOT, versions.at(-1)!, 'bin');
}

/**
 * A PostgreSQL cluster of the test's own (never the shared server on :5432, which other tests use),
 * which the test may stop abruptly and start again. The server refuses to run as root, so as root
 * it runs as the `postgres` user.
 */
export interface PrivatePostgres {
  /** Connection string of its `postgres` database. */
  adminUrl: string;
  port: number;
  /** `immediate`: the server dies without a checkpoint, like a crash; start() then runs crash recovery. */
  stop(mode: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** Stops it (immediately) and removes its files. Safe to call twice, and after a failed start. */
  dispose(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  const directory = await mkdtemp(join(tmpdir(), 'ledger-pg-'));
  const dataDir = join(directory, 'data');
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    await chown(directory, postgresId('-u'), postgresId('-g'));
    await chmod(directory, 0o700);
  }
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  let running = false;
  const cluster: PrivatePostgres = {
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      // -w waits until the server accepts connections (after crash recovery, if any).
      await as('pg_ctl', [
        '-D',
        dataDir,
        '-w',
        '-t',
        '60',
        '-l',
        join(directory, 'server.log'),
        '-o',
        `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`,
        'start',
      ]);
      running = true;
    },
    async stop(mode) {
      await as('pg_ctl', ['-D', dataDir, '-w', '-m', mode, 'stop']);
      running = false;
    },
    async dispose() {
      if (running) await cluster.stop('immediate').catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
  try {
    await as('initdb', ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-sync']);
    await cluster.start();
  } catch (error) {
    await cluster.dispose();
    throw error;
  }
  return cluster;
}

/** The `postgres` user's numeric id (`-u`) or group (`-g`). */
function postgresId(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
}
