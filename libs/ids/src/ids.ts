import { randomFillSync } from 'node:crypto';

// Random bytes are drawn in blocks: one system call per 256 ids instead of one per id.
const IDS_PER_BLOCK = 256;
const randomBlock = Buffer.alloc(16 * IDS_PER_BLOCK);
let nextOffset = randomBlock.length;

/** The offset of 16 fresh random bytes in randomBlock, valid until the next call. */
function randomSixteen(): number {
  if (nextOffset >= randomBlock.length) {
    randomFillSync(randomBlock);
    nextOffset = 0;
  }
  nextOffset += 16;
  return nextOffset - 16;
}

/** Makes the 16 random bytes at `offset` a UUID version 7: the milliseconds, the version and the variant. */
function stampVersion7(bytes: Buffer, offset: number, now: number): void {
  bytes.writeUIntBE(now, offset, 6);
  bytes[offset + 6] = (bytes[offset + 6]! & 0x0f) | 0x70;
  bytes[offset + 8] = (bytes[offset + 8]! & 0x3f) | 0x80;
}

/**
 * A UUID version 7: 48 bits of Unix milliseconds, then randomness. Time-ordered ids keep new rows at
 * the right edge of their indexes instead of scattering them. The id is written over its random bytes
 * in place (they are used once), so making one allocates nothing but its text.
 */
export function newId(now: number = Date.now()): string {
  const offset = randomSixteen();
  stampVersion7(randomBlock, offset, now);
  return uuidText(randomBlock.toString('hex', offset, offset + 16));
}

/** The usual 8-4-4-4-12 text of a UUID given as its 32 hex digits. */
export function uuidText(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `count` version-7 UUIDs, 16 bytes each laid end to end, for a batch of rows: made with one draw of random
 * bytes and no text (a binary uuid[] parameter takes them as they are). They share their millisecond, so
 * within one batch they are in no particular order.
 */
export function newIdBytes(count: number, now: number = Date.now()): Buffer {
  const bytes = Buffer.allocUnsafe(16 * count);
  randomFillSync(bytes);
  for (let offset = 0; offset < bytes.length; offset += 16) stampVersion7(bytes, offset, now);
  return bytes;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its text form, any version, either case. */
export function isUuid(text: string): boolean {
  return UUID_TEXT.test(text);
}
