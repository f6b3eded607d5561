import { describe, expect, it } from 'vitest';
import { readableBody, stepDetail } from './payment-steps';

describe('payment order step details', () => {
  it("puts the provider's HTTP status first and the elapsed time inline, the body apart and indented", () => {
    const detail = stepDetail({ elapsedMs: 12, body: '{"error":{"code":"unavailable"}}', httpStatus: 503 });
    expect(detail.facts).toEqual(['HTTP 503', '12 ms']);
    expect(detail.body).toBe('{\n  "error": {\n    "code": "unavailable"\n  }\n}');
  });

  it('says when no HTTP answer came, and when the body was cut short', () => {
    expect(stepDetail({ httpStatus: null, error: 'request timed out', elapsedMs: 1000 })).toEqual({
      facts: ['no HTTP answer', 'error: request timed out', '1000 ms'],
    });
    expect(stepDetail({ httpStatus: 200, body: '<html>', truncated: true, elapsedMs: 3 })).toEqual({
      facts: ['HTTP 200', 'body cut short', '3 ms'],
      body: '<html>',
    });
  });

  it("shows the ledger's side as named values, and nothing for an empty detail", () => {
    expect(stepDetail({ holdId: 'h-1', clearingAccount: 'assets:clearing' }).facts).toEqual([
      'holdId: h-1',
      'clearingAccount: assets:clearing',
    ]);
    expect(stepDetail({})).toEqual({ facts: [] });
    expect(stepDetail({ httpStatus: 204, body: '' })).toEqual({ facts: ['HTTP 204'] });
  });

  it('keeps a body that is not JSON as it came, and indents one stored as an object', () => {
    expect(readableBody('Service Unavailable')).toBe('Service Unavailable');
    expect(readableBody('{"id":"p-1","status":"executed"...')).toBe('{"id":"p-1","status":"executed"...');
    expect(readableBody({ id: 'p-1' })).toBe('{\n  "id": "p-1"\n}');
  });
});
