import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so that equal content always gives equal bytes:
 * the basis of stored fingerprints (idempotency keys, external references).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? JSON.stringify(value.toString()) : (JSON.stringify(value) ?? 'null');
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  // Plain loops and one growing string: this runs over every batch body (1000 items) and every item.
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index === 0 ? '' : ',') + canonicalJson(value[index]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of sortedKeys(record)) {
    const child = record[key];
    if (child === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(child)}`;
  }
  return `${text}}`;
}

/** Below this many keys an insertion sort in place: the built-in sort copies the array into one of its own. */
const INSERTION_SORT_KEYS_MAX = 16;

/** The keys in the order of the default sort: by UTF-16 code units, as the comparison operators compare. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_KEYS_MAX) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index]!;
    let at = index;
    for (; at > 0 && keys[at - 1]! > key; at--) keys[at] = keys[at - 1]!;
    keys[at] = key;
  }
  return keys;
}

/** One-shot: a third of the CPU of createHash().update().digest(), which a posting runs several times per item. */
export function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
