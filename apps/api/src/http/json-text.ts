import { isUtf8 } from 'node:buffer';
import { DomainError } from '@ledger/errors';
import type { z } from 'zod';
import { firstDuplicateKey } from './json-duplicate-keys';
import { JSON_DEPTH_MAX, jsonContentProblem, unstorableContentError } from './json-content';
import { ZodValidationPipe } from './zod-validation.pipe';

/** Offset of the first byte that does not start a well-formed UTF-8 sequence, or -1 (RFC 3629, no surrogates). */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    const continuations = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead <= 0xf4 ? 3 : 0;
    if (lead < 0xc2 || continuations === 0 || index + continuations >= bytes.length) return index;
    let codePoint = lead & (0x3f >> continuations);
    for (let next = 1; next <= continuations; next++) {
      const byte = bytes[index + next]!;
      if ((byte & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    const shortest = [0, 0x80, 0x800, 0x10000][continuations]!;
    if (codePoint < shortest || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return index;
    index += continuations + 1;
  }
  return -1;
}

/** Stands where the first invalid byte was: JSON.parse keeps it, so the field that held it can be named. */
const MARK = '\udfff';

/**
 * Where a JSON body's bytes are not UTF-8 (they would silently become U+FFFD), or null: the path of the
 * string that holds the first invalid byte, or `body` when it is outside any string.
 */
export function invalidUtf8Problem(bytes: Buffer): { path: string; message: string } | null {
  if (isUtf8(bytes)) return null;
  const offset = invalidUtf8Offset(bytes);
  const message = `is not valid UTF-8 (byte ${offset})`;
  const marked = `${bytes.subarray(0, offset).toString('utf8')}${MARK}${bytes.subarray(offset + 1).toString('utf8')}`;
  let value: unknown;
  try {
    value = JSON.parse(marked);
  } catch {
    return { path: 'body', message };
  }
  const at = jsonContentProblem(value, Number.POSITIVE_INFINITY, (text) => (text.includes(MARK) ? message : null));
  return { path: at?.path ?? 'body', message };
}

function invalid(message: string, path = 'body'): DomainError {
  return new DomainError('VALIDATION_FAILED', `the request body ${message}`, { fields: [{ path, message }] });
}

/**
 * A JSON request body as the API takes it: UTF-8, an object or an array, no key twice, no text PostgreSQL
 * cannot store, no nesting beyond JSON_DEPTH_MAX. Every body is parsed here, the signed ones (read raw)
 * once their signature verifies; each refusal is a 400 naming the field.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  const utf8 = invalidUtf8Problem(bytes);
  if (utf8 !== null) throw unstorableContentError(utf8);
  const text = bytes.toString('utf8');
  const key = firstDuplicateKey(text);
  if (key !== null) throw invalid(`has the key "${key.slice(0, 100)}" twice in one object`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('is not valid JSON');
  }
  if (typeof value !== 'object' || value === null) throw invalid('is not a JSON object or array');
  const problem = jsonContentProblem(value, JSON_DEPTH_MAX);
  if (problem !== null) throw unstorableContentError(problem);
  return value;
}

/** A signed JSON body read raw, parsed by `parseJsonBody` then checked by `schema`. */
export function parseJsonText<Schema extends z.ZodType>(bytes: Buffer, schema: Schema): z.output<Schema> {
  return new ZodValidationPipe(schema).transform(parseJsonBody(bytes));
}
