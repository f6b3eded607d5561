/** Wall-clock milliseconds of each step of a run, reported in its stats so a slow step can be named. */
export class RunTimings {
  readonly durationsMs: Record<string, number | Record<string, number>> = {};

  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.durationsMs[name] = Math.round(performance.now() - started);
    }
  }

  /** A step made of named parts, each timed by whoever runs it (the invariant checks, say). */
  record(name: string, partsMs: Record<string, number>): void {
    this.durationsMs[name] = partsMs;
  }
}
