import { randomInt } from 'node:crypto';

/** The run's seed: FAULT_SEED replays a run (the suite prints the seed it used). */
export const FAULT_SEED: number =
  process.env.FAULT_SEED === undefined ? randomInt(1, 2 ** 31) : Number(process.env.FAULT_SEED);

/** A small deterministic generator (mulberry32): the same seed gives the same kill moments and operations. */
export class SeededRandom {
  private state: number;

  constructor(seed: number, stream: string) {
    // Each test file draws from its own stream of the one seed, so files do not shift each other.
    let hash = seed >>> 0;
    for (const char of stream) hash = Math.imul(hash ^ char.charCodeAt(0), 0x9e3779b1) >>> 0;
    this.state = hash;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}
