import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so that equal content always gives equal bytes:
 * the basis of stored fingerprints (idempotency keys, external references).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? JSON.stringify(value.toString()) : JSON.stringify(value) ?? 'null';
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, child]) => child !== undefined)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(',')}}`;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
