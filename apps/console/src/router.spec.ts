import { describe, expect, it } from 'vitest';
import { link, parseRoute } from './router';

describe('console routes', () => {
  it('reads pages, their parameter and query from the hash', () => {
    expect(parseRoute('').name).toBe('queue');
    expect(parseRoute('#/discrepancies?status=open').query.get('status')).toBe('open');
    expect(parseRoute('#/discrepancies/abc')).toMatchObject({ name: 'ticket', param: 'abc' });
    expect(parseRoute('#/accounts/assets%3Abank')).toMatchObject({ name: 'account', param: 'assets:bank' });
    expect(parseRoute('#/nowhere')).toMatchObject({ name: 'not-found', param: '/nowhere' });
  });

  it('writes links that read back the same', () => {
    const written = link('/accounts', 'assets:bank', { asOf: '2026-01-01T00:00:00Z', empty: '' });
    expect(written).toBe('#/accounts/assets%3Abank?asOf=2026-01-01T00%3A00%3A00Z');
    expect(parseRoute(written)).toMatchObject({ name: 'account', param: 'assets:bank' });
    expect(parseRoute(written).query.get('asOf')).toBe('2026-01-01T00:00:00Z');
  });
});
