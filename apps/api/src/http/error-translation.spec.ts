import { describe, expect, it } from 'vitest';
import { toHttpError } from './error-translation';

const messageOf = (request: Parameters<typeof toHttpError>[1]) =>
  (toHttpError(new Error('boom'), request).body as { error: { message: string } }).error.message;

describe('toHttpError: an unexpected error', () => {
  it('tells only a POST that sent an Idempotency-Key to resend it with that key', () => {
    expect(messageOf({ method: 'POST', headers: { 'idempotency-key': 'k1' } })).toBe(
      'internal error; retry with the same Idempotency-Key',
    );
    expect(messageOf({ method: 'GET', headers: {} })).toBe('internal error; retry later');
    expect(messageOf({ method: 'GET', headers: { 'idempotency-key': 'k1' } })).not.toMatch(/Idempotency-Key/);
    expect(messageOf({ method: 'POST', headers: {} })).not.toMatch(/Idempotency-Key/);
    expect(toHttpError(new Error('boom'), { method: 'GET', headers: {} }).status).toBe(500);
  });
});
