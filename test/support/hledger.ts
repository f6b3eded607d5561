import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function installed(): Promise<boolean> {
  try {
    await run('hledger', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * Debian's hledger, installed with apt-get if missing (as root, else through password-less sudo).
 * If it cannot be installed the calling test fails with the reason: it never passes without hledger.
 */
export async function ensureHledger(): Promise<void> {
  if (await installed()) return;
  const [command, ...prefix] = process.getuid?.() === 0 ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const problems: string[] = [];
  for (const step of [
    ['install', '-y', '-qq', 'hledger'],
    ['update', '-qq'],
    ['install', '-y', '-qq', 'hledger'],
  ]) {
    try {
      await run(command!, [...prefix, ...step], { env });
      if (await installed()) return;
    } catch (error) {
      problems.push(`apt-get ${step.join(' ')}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const tried = problems.join('; ') || 'apt-get ran but no hledger appeared';
  throw new Error(
    `hledger is not installed and could not be installed (${tried}); install it with: apt-get install -y hledger`,
  );
}

/** Runs hledger; resolves with its output, or rejects with its stderr. */
export async function hledger(args: string[]): Promise<string> {
  try {
    return (await run('hledger', args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw new Error(
      `hledger ${args.join(' ')} failed: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`,
    );
  }
}
