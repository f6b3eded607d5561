// A load generator in C (pgbench, wrk) run as a child under bash, whose `times` then prints the CPU of
// the children it waited for: the generator's own cost, which shares the machine with what it measures.
import { spawn } from 'node:child_process';

export interface LoadGeneratorRun {
  stdout: string;
  /** CPU of the load generator itself (user + system), from the shell's `times`. */
  clientCpuMs: number;
}

/** The CPU milliseconds of a line of bash's `times` (user and system summed). */
function parseTimes(line: string): number {
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, rest]) => Number(minutes) * 60 + Number(rest),
  );
  return (seconds.reduce((sum, each) => sum + each, 0) || Number.NaN) * 1000;
}

/**
 * Runs `program` with `args` (and `env`, when given); rejects with its output when it exits other than 0.
 * It is killed after `killAfterMs`: it is meant to stop by itself long before.
 */
export function runLoadGenerator(
  program: string,
  args: readonly string[],
  killAfterMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<LoadGeneratorRun> {
  const child = spawn('bash', ['-c', `${program} "$@"; status=$?; times >&2; exit $status`, program, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolveRun, reject) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      const lines = stderr.trim().split('\n');
      if (code !== 0) reject(new Error(`${program} failed (${code}): ${stderr.slice(-2000)}${stdout.slice(-2000)}`));
      else resolveRun({ stdout, clientCpuMs: parseTimes(lines[lines.length - 1] ?? '') });
    });
  });
}
