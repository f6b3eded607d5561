/**
 * V8's young generation, the heap where a request's short-lived objects are made. At its default size
 * it fills many times a second under load, and each collection copies what is still alive (the requests
 * in flight). With 64 MB per semi-space the collector's share of the API's thread fell from 8% to 5% at
 * 16 clients in the bench (test/bench/README.md, "What limits single postings"). V8 reads
 * it only at start, so it is a flag of the node command: the supervisor gives it to the processes it
 * forks, and the README's production command line names it for a single process.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=64';

/** `execArgv` with the young generation flag, unless it already sizes the young generation itself. */
export function withApiNodeFlags(execArgv: readonly string[]): string[] {
  const sized = execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
  return sized ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}
