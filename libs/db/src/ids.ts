import { randomFillSync } from 'node:crypto';

// Random bytes are drawn in blocks: one system call per 256 ids instead of one per id.
const IDS_PER_BLOCK = 256;
const randomBlock = Buffer.alloc(16 * IDS_PER_BLOCK);
let nextOffset = randomBlock.length;

function randomSixteen(): Buffer {
  if (nextOffset >= randomBlock.length) {
    randomFillSync(randomBlock);
    nextOffset = 0;
  }
  const bytes = Buffer.from(randomBlock.subarray(nextOffset, nextOffset + 16));
  nextOffset += 16;
  return bytes;
}

/**
 * A UUID version 7: 48 bits of Unix milliseconds, then randomness. Time-ordered ids keep new rows at
 * the right edge of their indexes instead of scattering them.
 */
export function newId(now: number = Date.now()): string {
  const bytes = randomSixteen();
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its text form, any version, either case. */
export function isUuid(text: string): boolean {
  return UUID_TEXT.test(text);
}
