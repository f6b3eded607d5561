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
  // The default sort orders by UTF-16 code units, as the comparison operators do.
  for (const key of Object.keys(record).sort()) {
    const child = record[key];
    if (child === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(child)}`;
  }
  return `${text}}`;
}

/** One-shot: a third of the CPU of createHash().update().digest(), which a posting runs several times per item. */
export function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
