import { json } from 'express';
import { firstDuplicateKey } from './json-duplicate-keys';
import { invalidUtf8Problem } from './json-text';

/** The body-parser error type of a body with a key twice in one object (see error-translation). */
export const DUPLICATE_KEY_ERROR = 'entity.duplicate.key';
/** The body-parser error type of a body whose bytes are not UTF-8 (they would become U+FFFD unseen). */
export const INVALID_UTF8_ERROR = 'entity.invalid.utf8';

/**
 * Parses JSON bodies up to `limit` bytes, strict (objects and arrays only), refusing bytes that are not
 * UTF-8 (naming the field they are in) and duplicate keys.
 */
export function jsonBody(limit: number) {
  return json({
    limit,
    strict: true,
    verify: (_request, _response, buffer, encoding) => {
      const utf8 = encoding.toLowerCase() === 'utf-8' ? invalidUtf8Problem(buffer) : null;
      if (utf8 !== null)
        throw Object.assign(new Error(`the request body at ${utf8.path} ${utf8.message}`), {
          status: 400,
          type: INVALID_UTF8_ERROR,
          fields: [{ path: utf8.path.replace(/^body\.?/, '') || 'body', message: utf8.message }],
        });
      const key = firstDuplicateKey(buffer.toString('utf8'));
      if (key !== null)
        throw Object.assign(new Error(`the request body has the key "${key.slice(0, 100)}" twice in one object`), {
          status: 400,
          type: DUPLICATE_KEY_ERROR,
        });
    },
  });
}
