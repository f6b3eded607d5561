import { unixDaysOfIsoDate } from '@ledger/calendar';
import { isUuid, uuidText } from '@ledger/ids';

/**
 * A one-dimensional array parameter, written element by element as it is filled, in PostgreSQL's binary
 * array format (what array_recv reads), into a buffer outside the JavaScript heap. A batch of thousands of
 * rows then holds no string per element while it fills and waits to be sent: nothing for the garbage
 * collector to copy from one young generation to the next, no literal to build, quote and measure again.
 *
 * node-postgres sends a Buffer parameter in binary format as it is; the embedded database takes its
 * parameters as values, so its pool hands it values() instead. The SQL casts the parameter to the array type
 * (`:ids::uuid[]`), which must be the one the array was made for: PostgreSQL refuses another element type.
 */

/** Element types, with their type OIDs (pg_type) and the JavaScript value each element is given as. */
const ELEMENT_OIDS = { text: 25, uuid: 2950, int4: 23, int8: 20, date: 1082, bool: 16 } as const;

type ElementType = keyof typeof ELEMENT_OIDS;

interface ElementValue {
  text: string;
  /** 32 hex digits, with or without the hyphens of the usual form. */
  uuid: string;
  int4: number;
  int8: bigint;
  /** YYYY-MM-DD. */
  date: string;
  bool: boolean;
}

/** ndim, flags, element type; then one dimension's size and lower bound. */
const HEADER_BYTES = 20;
const EMPTY_HEADER_BYTES = 12;
const INITIAL_BYTES = 16 * 1024;
const NULL_LENGTH = -1;
/** The elements of every type but text are of one size. */
const FIXED_SIZES: Readonly<Record<Exclude<ElementType, 'text'>, number>> = {
  uuid: 16,
  int4: 4,
  int8: 8,
  date: 4,
  bool: 1,
};
const UUID_BYTES = 16;
const DAY_MS = 86_400_000;
/** PostgreSQL's dates count days from 2000-01-01. */
const POSTGRES_EPOCH_DAY = Date.UTC(2000, 0, 1) / DAY_MS;

export class SqlArray<T extends ElementType> {
  private buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = HEADER_BYTES;
  private count = 0;
  private hasNull = false;

  private constructor(readonly element: T) {}

  static of<T extends ElementType>(element: T, values: Iterable<ElementValue[T] | null> = []): SqlArray<T> {
    const array = new SqlArray(element);
    for (const value of values) array.push(value);
    return array;
  }

  /** A uuid[] of the 16-byte UUIDs laid end to end in `bytes` (as newIdBytes makes them), copied as they are. */
  static ofUuidBytes(bytes: Buffer): SqlArray<'uuid'> {
    if (bytes.length % UUID_BYTES !== 0) throw new TypeError(`${bytes.length} bytes are not whole UUIDs`);
    const array = new SqlArray('uuid');
    for (let from = 0; from < bytes.length; from += UUID_BYTES) {
      const at = array.startFixed(UUID_BYTES);
      bytes.copy(array.buffer, at, from, from + UUID_BYTES);
      array.endFixed(at, UUID_BYTES);
      array.count += 1;
    }
    return array;
  }

  get length(): number {
    return this.count;
  }

  /** Appends one element; a value that is not of the element type is a TypeError, and nothing is written. */
  push(value: ElementValue[T] | null): void {
    if (value === null) {
      this.reserve(4);
      this.buffer.writeInt32BE(NULL_LENGTH, this.used);
      this.used += 4;
      this.hasNull = true;
    } else {
      this.write(value);
    }
    this.count += 1;
  }

  /** The array in binary format, for node-postgres: a view of this array's buffer, valid until the next push. */
  bytes(): Buffer {
    const header = this.buffer;
    header.writeInt32BE(this.count === 0 ? 0 : 1, 0);
    header.writeInt32BE(this.hasNull ? 1 : 0, 4);
    header.writeInt32BE(ELEMENT_OIDS[this.element], 8);
    if (this.count === 0) {
      // No dimension: the three header fields only, moved up to where the empty array's data would begin.
      header.copy(header, HEADER_BYTES - EMPTY_HEADER_BYTES, 0, EMPTY_HEADER_BYTES);
      return header.subarray(HEADER_BYTES - EMPTY_HEADER_BYTES, HEADER_BYTES);
    }
    header.writeInt32BE(this.count, 12);
    header.writeInt32BE(1, 16);
    return header.subarray(0, this.used);
  }

  /** The elements as JavaScript values (uuids hyphenated, lower case), for a driver that takes values. */
  values(): (ElementValue[T] | null)[] {
    const values = new Array<ElementValue[T] | null>(this.count);
    let at = HEADER_BYTES;
    for (let index = 0; index < this.count; index += 1) {
      const length = this.buffer.readInt32BE(at);
      at += 4;
      if (length === NULL_LENGTH) {
        values[index] = null;
        continue;
      }
      values[index] = this.read(at, length) as ElementValue[T];
      at += length;
    }
    return values;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.used + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }

  private write(value: ElementValue[ElementType]): void {
    const element: ElementType = this.element;
    if (element === 'text') return this.writeText(value);
    const size = FIXED_SIZES[element];
    const at = this.startFixed(size);
    // Checked before anything is written: a refused value leaves the array as it was.
    if (element === 'uuid') {
      const digits = typeof value === 'string' ? uuidDigits(value) : null;
      if (digits === null) throw this.refused(value);
      this.buffer.write(digits, at, UUID_BYTES, 'hex');
    } else if (element === 'int4') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31)
        throw this.refused(value);
      this.buffer.writeInt32BE(value, at);
    } else if (element === 'int8') {
      if (typeof value !== 'bigint' || value !== BigInt.asIntN(64, value)) throw this.refused(value);
      this.buffer.writeBigInt64BE(value, at);
    } else if (element === 'date') {
      const days = typeof value === 'string' ? unixDaysOfIsoDate(value) : null;
      if (days === null) throw this.refused(value);
      this.buffer.writeInt32BE(days - POSTGRES_EPOCH_DAY, at);
    } else {
      if (typeof value !== 'boolean') throw this.refused(value);
      this.buffer[at] = value ? 1 : 0;
    }
    this.endFixed(at, size);
  }

  private writeText(value: unknown): void {
    if (typeof value !== 'string') throw this.refused(value);
    // At most three UTF-8 bytes per UTF-16 unit (a surrogate pair: four bytes for two units).
    this.reserve(4 + 3 * value.length);
    const written = this.buffer.write(value, this.used + 4, 'utf8');
    this.buffer.writeInt32BE(written, this.used);
    this.used += 4 + written;
  }

  /** Room for a fixed-size element; answers where its bytes go (its length is written once they are). */
  private startFixed(size: number): number {
    this.reserve(4 + size);
    return this.used + 4;
  }

  /** The element whose bytes were written at `at` (from startFixed): its length before it, and it is used. */
  private endFixed(at: number, size: number): void {
    this.buffer.writeInt32BE(size, at - 4);
    this.used = at + size;
  }

  private read(at: number, length: number): ElementValue[ElementType] {
    const buffer = this.buffer;
    switch (this.element) {
      case 'text':
        return buffer.toString('utf8', at, at + length);
      case 'uuid':
        return uuidText(buffer.toString('hex', at, at + UUID_BYTES));
      case 'int4':
        return buffer.readInt32BE(at);
      case 'int8':
        return buffer.readBigInt64BE(at);
      case 'date':
        return new Date((buffer.readInt32BE(at) + POSTGRES_EPOCH_DAY) * DAY_MS).toISOString().slice(0, 10);
      case 'bool':
        return buffer[at] === 1;
    }
  }

  private refused(value: unknown): TypeError {
    const shown = typeof value === 'bigint' ? `${value}n` : JSON.stringify(value);
    return new TypeError(`cannot send ${shown} as an element of a ${this.element}[] parameter`);
  }
}

const HEX_DIGITS = /^[0-9a-f]{32}$/i;

/** The 32 hex digits of a uuid given with or without its hyphens (8-4-4-4-12); null when it is not one. */
function uuidDigits(text: string): string | null {
  if (text.length === 32) return HEX_DIGITS.test(text) ? text : null;
  return isUuid(text) ? text.replaceAll('-', '') : null;
}
