import { GCProfiler, getHeapStatistics } from 'node:v8';

// Wall time, CPU time, peak resident memory and JavaScript heap activity of this process while one piece of
// work runs (the import and reconcile suites run the ledger's use cases in this process).

const MEMORY_SAMPLE_MS = 50;

export interface Measured<T> {
  result: T;
  seconds: number;
  /** CPU seconds of this process (Node's share: parsing, hashing; PostgreSQL's is not in it). */
  cpuSeconds: number;
  peakRssMiB: number;
  /** Peak RSS over the RSS right before the work (after a GC when node runs with --expose-gc). */
  rssGrowthMiB: number;
  /**
   * Bytes allocated on the JavaScript heap during the work: what the heap grew by between collections, summed.
   * It counts work the way CPU seconds cannot on a shared machine: the same code allocates the same bytes
   * whatever its neighbours do.
   */
  allocatedBytes: number;
  /** Time the garbage collector spent, by V8's own account. */
  gcMs: number;
}

type GcProfile = ReturnType<GCProfiler['stop']>;
/** The profiler names its heap statistics in camel case (Node's types give getHeapStatistics' snake case). */
const usedHeapSize = (statistics: object) => (statistics as { usedHeapSize: number }).usedHeapSize;

function heapActivity(profile: GcProfile, usedAtStart: number, usedAtEnd: number) {
  let allocatedBytes = 0;
  let gcMicros = 0;
  let usedAfterLast = usedAtStart;
  for (const collection of profile.statistics) {
    allocatedBytes += Math.max(0, usedHeapSize(collection.beforeGC.heapStatistics) - usedAfterLast);
    usedAfterLast = usedHeapSize(collection.afterGC.heapStatistics);
    gcMicros += collection.cost;
  }
  allocatedBytes += Math.max(0, usedAtEnd - usedAfterLast);
  return { allocatedBytes, gcMs: gcMicros / 1000 };
}

const mebibytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

export async function measure<T>(work: () => Promise<T>): Promise<Measured<T>> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), MEMORY_SAMPLE_MS);
  const collections = new GCProfiler();
  const usedAtStart = getHeapStatistics().used_heap_size;
  collections.start();
  let profile: GcProfile | undefined;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    profile = collections.stop();
    const heap = heapActivity(profile, usedAtStart, getHeapStatistics().used_heap_size);
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      result,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMiB: mebibytes(peak),
      rssGrowthMiB: mebibytes(peak - before),
      ...heap,
    };
  } finally {
    clearInterval(sampler);
    if (profile === undefined) collections.stop();
  }
}
