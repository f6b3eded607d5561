import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

// Where the CPU goes, per transfer: the API's Node process, the PostgreSQL backends connected to the
// bench database (not the server's other databases: the machine may be shared), and this load
// generator. On a 2-core machine this says which of the three a workload is really waiting for.
// Linux /proc only; elsewhere the figures are NaN.

function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

const TICKS_PER_SECOND = clockTicksPerSecond();

interface ProcessTimes {
  comm: string;
  parentPid: number;
  cpuMs: number;
}

function readProcessTimes(pid: number): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces; the numeric fields follow the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After comm: state is field 3, utime field 14, stime field 15 (1-based over the whole line).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { comm, parentPid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU milliseconds a process has used so far (NaN where /proc cannot tell). */
export function processCpuMs(pid: number): number {
  return readProcessTimes(pid)?.cpuMs ?? Number.NaN;
}

export interface CpuSnapshot {
  apiNodeMs: number;
  postgresByPid: Map<number, number>;
  benchClientMs: number;
  available: boolean;
}

/**
 * Whether a postgres process serves `databaseName` (its title reads "postgres: ... <user> <database>
 * <client> ...").
 */
function servesDatabase(pid: number, databaseName: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ').includes(databaseName);
  } catch {
    return false;
  }
}

/**
 * `apiPid`'s CPU counts its child processes too (API_PROCESSES above 1: the supervisor forks the API
 * processes); pass -1 when there is no API process to read.
 */
export function takeCpuSnapshot(apiPid: number, databaseName: string): CpuSnapshot {
  const postgresByPid = new Map<number, number>();
  let apiChildrenMs = 0;
  let available = true;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const times = readProcessTimes(Number(name));
      if (times?.comm === 'postgres' && servesDatabase(Number(name), databaseName))
        postgresByPid.set(Number(name), times.cpuMs);
      if (times !== undefined && times.parentPid === apiPid) apiChildrenMs += times.cpuMs;
    }
  } catch {
    available = false;
  }
  const api = readProcessTimes(apiPid);
  const own = process.cpuUsage();
  return {
    apiNodeMs: api === undefined ? Number.NaN : api.cpuMs + apiChildrenMs,
    postgresByPid,
    benchClientMs: (own.user + own.system) / 1000,
    available: available && api !== undefined,
  };
}

export interface CpuSpent {
  apiNodeMs: number;
  postgresMs: number;
  benchClientMs: number;
}

/** CPU spent between two snapshots. Backends that exited in between are lost (idle ones, in practice). */
export function cpuSpentBetween(before: CpuSnapshot, after: CpuSnapshot): CpuSpent {
  let postgresMs = 0;
  for (const [pid, cpuMs] of after.postgresByPid) postgresMs += cpuMs - (before.postgresByPid.get(pid) ?? 0);
  const available = before.available && after.available;
  return {
    apiNodeMs: available ? after.apiNodeMs - before.apiNodeMs : Number.NaN,
    postgresMs: available ? postgresMs : Number.NaN,
    benchClientMs: after.benchClientMs - before.benchClientMs,
  };
}

const BACKEND_SAMPLE_INTERVAL_MS = 50;

/**
 * CPU of the backends serving `databaseName` whose connections open and close inside the measured span
 * (pgbench's): a snapshot after the run cannot read an exited backend, so the backends are read every
 * 50 ms and each one's last reading counts (from its start: the connection's own set-up is included,
 * and up to one interval of its last work may be missed).
 */
export class BackendCpuSampler {
  private readonly lastByPid = new Map<number, number>();
  private readonly before: Map<number, number>;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly databaseName: string) {
    this.before = takeCpuSnapshot(-1, databaseName).postgresByPid;
  }

  start(): void {
    this.timer = setInterval(() => this.sample(), BACKEND_SAMPLE_INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  /** Milliseconds of CPU the backends spent since the sampler was made. */
  totalCpuMs(): number {
    let total = 0;
    for (const [pid, cpuMs] of this.lastByPid) total += cpuMs - (this.before.get(pid) ?? 0);
    return total;
  }

  private sample(): void {
    for (const [pid, cpuMs] of takeCpuSnapshot(-1, this.databaseName).postgresByPid) this.lastByPid.set(pid, cpuMs);
  }
}

/** The whole machine's CPU time so far, in clock ticks: all of it, and what the hypervisor stole. */
export interface MachineCpuTicks {
  total: number;
  steal: number;
}

export function machineCpuTicks(): MachineCpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is inside user.
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (ticks.length < 8 || ticks.some((value) => !Number.isFinite(value))) return undefined;
    return { total: ticks.reduce((sum, value) => sum + value, 0), steal: ticks[7]! };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time between two readings that the hypervisor gave to other guests. */
export function stealShare(from: MachineCpuTicks | undefined, to: MachineCpuTicks | undefined): number {
  if (from === undefined || to === undefined || to.total <= from.total) return Number.NaN;
  return (to.steal - from.steal) / (to.total - from.total);
}
