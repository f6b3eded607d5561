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
