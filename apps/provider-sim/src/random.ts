import { randomInt } from 'node:crypto';

/** Numbers in [0, 1). */
export type Random = () => number;

/**
 * A small seeded generator (mulberry32) so that a test run with PROVIDER_SIM_SEED repeats its faults; the
 * simulator needs repeatability, not cryptographic strength. Without a seed it starts from a random one.
 */
export function seededRandom(seed: string | undefined): Random {
  let state = seed === undefined ? randomInt(2 ** 32) : hashSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** FNV-1a over the seed text: any string is a seed. */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    hash = Math.imul(hash ^ seed.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash;
}

/** An integer in [lowest, highest]. */
export function randomBetween(random: Random, lowest: number, highest: number): number {
  return lowest + Math.floor(random() * (highest - lowest + 1));
}
