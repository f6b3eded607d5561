import { userInfo } from 'node:os';

/**
 * The actor of everything the `ledger` command does: `cli:<os user>` (the uid where the system has no
 * name for it), on transactions, imports, runs and audit entries alike.
 */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`.slice(0, 200);
  } catch {
    return `cli:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}
