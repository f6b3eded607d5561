/** Progress lines on stdout, stamped with the time of day. */
export type BenchLog = (message: string) => void;

export function consoleLog(prefix: string): BenchLog {
  return (message) => console.log(`[${prefix} ${new Date().toISOString().slice(11, 19)}] ${message}`);
}
