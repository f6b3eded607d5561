import { isUuid } from '@ledger/ids';

/** Thrown when a field does not fit its fixed width or range: the encoding is refused, never truncated. */
export class EncodingRangeError extends RangeError {}

export const U63_MAX = 2n ** 63n - 1n;

function fail(field: string, message: string): never {
  throw new EncodingRangeError(`${field}: ${message}`);
}

/**
 * Writes fixed-width, big-endian fields and checks every value's range first. Every field of a hashed
 * or signed encoding goes through here, so a value that does not fit (a negative sum, a 2^64 wrap, a
 * 33-byte hash) can never be encoded as some other value.
 */
export class FixedWidthWriter {
  private readonly chunks: Buffer[] = [];

  private push(width: number, write: (chunk: Buffer) => void): this {
    const chunk = Buffer.alloc(width);
    write(chunk);
    this.chunks.push(chunk);
    return this;
  }

  uint(field: string, value: number, bytes: 1 | 2 | 4): this {
    if (!Number.isSafeInteger(value) || value < 0 || value >= 2 ** (8 * bytes))
      fail(field, `${value} is not a ${8 * bytes}-bit unsigned integer`);
    return this.push(bytes, (chunk) => chunk.writeUIntBE(value, 0, bytes));
  }

  /** 0 <= value <= 2^63 - 1: sums stay below what a signed 64-bit reader could misread. */
  u63(field: string, value: bigint): this {
    if (typeof value !== 'bigint' || value < 0n || value > U63_MAX)
      fail(field, `${String(value)} is outside 0..2^63-1`);
    return this.push(8, (chunk) => chunk.writeBigUInt64BE(value));
  }

  /** Milliseconds since the epoch of a valid date, as a signed 64-bit integer. */
  time(field: string, value: Date): this {
    const ms = value.getTime();
    if (!Number.isSafeInteger(ms)) fail(field, 'is not a valid time');
    return this.push(8, (chunk) => chunk.writeBigInt64BE(BigInt(ms)));
  }

  uuid(field: string, value: string): this {
    if (!isUuid(value) || value !== value.toLowerCase()) fail(field, `${value} is not a lower-case UUID`);
    return this.push(16, (chunk) => chunk.write(value.replace(/-/g, ''), 'hex'));
  }

  bytes(field: string, value: Buffer, width: number): this {
    if (!Buffer.isBuffer(value) || value.length !== width) fail(field, `must be exactly ${width} bytes`);
    this.chunks.push(Buffer.from(value));
    return this;
  }

  /** ASCII text matching `pattern`, NUL-padded to `width` bytes. */
  ascii(field: string, value: string, width: number, pattern: RegExp): this {
    if (typeof value !== 'string' || value.length > width || !pattern.test(value))
      fail(field, `${JSON.stringify(value)} is not ${pattern} in ${width} bytes`);
    return this.push(width, (chunk) => chunk.write(value, 'ascii'));
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
