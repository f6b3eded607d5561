import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invalidUtf8Offset, invalidUtf8Problem, parseJsonText } from './json-text';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('invalidUtf8Offset', () => {
  it('agrees with the platform on any bytes: -1 exactly when they are UTF-8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (array) => {
        const valid = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
        let platform = true;
        try {
          valid.decode(array);
        } catch {
          platform = false;
        }
        expect(invalidUtf8Offset(array) === -1).toBe(platform);
      }),
      { numRuns: 5000 },
    );
  });

  it('finds overlong forms, encoded surrogates, cut sequences and stray continuation bytes', () => {
    expect(invalidUtf8Offset(bytes('ok €💶'))).toBe(-1);
    expect(invalidUtf8Offset(bytes('ab', [0xc0, 0x80]))).toBe(2);
    expect(invalidUtf8Offset(bytes('a', [0xed, 0xa0, 0x80]))).toBe(1);
    expect(invalidUtf8Offset(bytes('a', [0xe2, 0x82]))).toBe(1);
    expect(invalidUtf8Offset(bytes([0x80]))).toBe(0);
    expect(invalidUtf8Offset(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });
});

describe('invalidUtf8Problem', () => {
  it('names the field whose text holds the invalid byte, nested or a key', () => {
    expect(invalidUtf8Problem(bytes('{"a":"ok"}'))).toBeNull();
    expect(invalidUtf8Problem(bytes('{"metadata":{"note":"x', [0xff], '"}}'))).toEqual({
      path: 'body.metadata.note',
      message: 'is not valid UTF-8 (byte 22)',
    });
    expect(invalidUtf8Problem(bytes('{"k', [0xc3], '":1}'))?.path).toBe('body.k\udfff');
    expect(invalidUtf8Problem(bytes('{"a":1', [0xff], '}'))?.path).toBe('body');
  });
});

describe('parseJsonText', () => {
  const schema = z.strictObject({ id: z.string() });
  const refusal = (text: Buffer) => {
    try {
      parseJsonText(text, schema);
    } catch (error) {
      return error as { code: string; details: { fields: { path: string }[] } };
    }
    throw new Error('accepted');
  };

  it('parses valid text by the schema, and refuses each kind of bad body naming where', () => {
    expect(parseJsonText(bytes('{"id":"m1"}'), schema)).toEqual({ id: 'm1' });
    expect(refusal(bytes('{"id":"a', [0xff], '"}')).details.fields[0]!.path).toBe('id');
    expect(refusal(bytes('{"id":"a\\u0000"}')).details.fields[0]!.path).toBe('id');
    expect(refusal(bytes('{"id":"a","id":"b"}')).code).toBe('VALIDATION_FAILED');
    expect(refusal(bytes('{"id":')).code).toBe('VALIDATION_FAILED');
    expect(refusal(bytes('{"id":1}')).details.fields[0]!.path).toBe('id');
  });
});
