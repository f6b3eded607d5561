import { json } from 'express';
import { firstDuplicateKey } from './json-duplicate-keys';
import { keepSignedRawBody } from './raw-body';

/** The body-parser error type of a body with a key twice in one object (see error-translation). */
export const DUPLICATE_KEY_ERROR = 'entity.duplicate.key';

/**
 * Parses JSON bodies up to `limit` bytes, strict (objects and arrays only), refusing duplicate keys; keeps
 * signed bodies' raw text.
 */
export function jsonBody(limit: number) {
  return json({
    limit,
    strict: true,
    verify: (request, response, buffer) => {
      keepSignedRawBody(request, response, buffer);
      const key = firstDuplicateKey(buffer.toString('utf8'));
      if (key !== null)
        throw Object.assign(new Error(`the request body has the key "${key.slice(0, 100)}" twice in one object`), {
          status: 400,
          type: DUPLICATE_KEY_ERROR,
        });
    },
  });
}
