import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

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

/** Server settings (`-c name=value`) besides the port, the socket directory and fsync off. */
export type ServerSettings = Record<string, string>;

type Run = (command: string, args: string[]) => Promise<unknown>;

/** A directory of the test's own, owned by the user the server runs as, and how to run its binaries. */
async function clusterDirectory(): Promise<{ directory: string; as: Run }> {
  const bin = postgresBinaries();
  const directory = await mkdtemp(join(tmpdir(), 'ledger-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    await chown(directory, postgresId('-u'), postgresId('-g'));
    await chmod(directory, 0o700);
  }
  const as: Run = (command, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  return { directory, as };
}

/** Runs `create` to fill the data directory, then starts the server on a free loopback port. */
async function startCluster(settings: ServerSettings, create: (dataDir: string, as: Run) => Promise<void>) {
  const { directory, as } = await clusterDirectory();
  const dataDir = join(directory, 'data');
  const port = await freePort();
  const options = [
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
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
        options,
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
    await create(dataDir, as);
    await cluster.start();
  } catch (error) {
    await cluster.dispose();
    throw error;
  }
  return cluster;
}

/** A new cluster (initdb, trust authentication: its default pg_hba.conf also lets 127.0.0.1 replicate). */
export function startPrivatePostgres(settings: ServerSettings = {}): Promise<PrivatePostgres> {
  return startCluster(settings, async (dataDir, as) => {
    await as('initdb', ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-sync']);
  });
}

/** What a primary needs to stream its WAL to a hot standby (the defaults of recent versions, said here). */
export const PRIMARY_SETTINGS: ServerSettings = { wal_level: 'replica', max_wal_senders: '5', hot_standby: 'on' };

/**
 * A hot standby of `primary` on a port of its own: a base backup taken over the replication protocol
 * (`-R` writes standby.signal and the primary's connection; `-X stream` brings the WAL written meanwhile;
 * a fast checkpoint starts it at once rather than after a spread one),
 * which then streams and replays the primary's WAL and answers read-only queries.
 */
export function startPrivateStandby(primary: PrivatePostgres, settings: ServerSettings = {}): Promise<PrivatePostgres> {
  return startCluster({ hot_standby: 'on', ...settings }, async (dataDir, as) => {
    await as('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      dataDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
  });
}

/** The `postgres` user's numeric id (`-u`) or group (`-g`). */
function postgresId(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
}
