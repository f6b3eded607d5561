import { DomainError } from '@ledger/errors';

/** Opaque page cursors: the client passes back what it was given and never builds one. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(parts.join('|')).toString('base64url');
}

export function decodeCursor(cursor: string, pattern: RegExp): string[] {
  const text = Buffer.from(cursor, 'base64url').toString();
  const parts = text.split('|');
  if (cursor.length > 200 || !parts.every((part) => pattern.test(part))) {
    throw new DomainError('VALIDATION_FAILED', 'cursor is not one this list gave out', {
      fields: [{ path: 'cursor', message: 'invalid cursor' }],
    });
  }
  return parts;
}

const UUID_PART = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id a keyset cursor over ids carries (the lists ordered by UUIDv7 id). */
export function decodeIdCursor(cursor: string): string {
  return decodeCursor(cursor, UUID_PART)[0]!;
}

/**
 * One page of a keyset list read with `limit + 1` rows: the extra row only tells that more follow, and
 * the cursor names the page's last row (in the parts `cursorOf` gives).
 */
export function pageOf<Row>(
  rows: readonly Row[],
  limit: number,
  cursorOf: (last: Row) => readonly string[],
): { data: Row[]; nextCursor: string | null } {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}
