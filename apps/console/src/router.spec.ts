import { describe, expect, it } from 'vitest';
import { link, parseRoute } from './router';

const TICKET = '0190d4a2-7b1c-7c3e-9a51-2f6e1d0c4b7a';

describe('console routes', () => {
  it('reads pages, their parameter and query from the hash', () => {
    expect(parseRoute('').name).toBe('queue');
    expect(parseRoute('#/discrepancies?status=open').query.get('status')).toBe('open');
    expect(parseRoute(`#/discrepancies/${TICKET}`)).toMatchObject({ name: 'ticket', param: TICKET });
    expect(parseRoute('#/accounts/assets%3Abank')).toMatchObject({ name: 'account', param: 'assets:bank' });
    expect(parseRoute('#/payments?status=settled')).toMatchObject({ name: 'payments', param: '' });
    expect(parseRoute('#/payments?status=settled').query.get('status')).toBe('settled');
    expect(parseRoute(`#/payments/${TICKET}`)).toMatchObject({ name: 'payment', param: TICKET });
    expect(parseRoute('#/nowhere')).toMatchObject({ name: 'not-found', param: '/nowhere' });
  });

  it('writes links that read back the same', () => {
    const written = link('/accounts', 'assets:bank', { asOf: '2026-01-01T00:00:00Z', empty: '' });
    expect(written).toBe('#/accounts/assets%3Abank?asOf=2026-01-01T00%3A00%3A00Z');
    expect(parseRoute(written)).toMatchObject({ name: 'account', param: 'assets:bank' });
    expect(parseRoute(written).query.get('asOf')).toBe('2026-01-01T00:00:00Z');
  });

  it('takes a link whose parameter is not what its page expects for a bad one, whatever it decodes to', () => {
    for (const hash of [
      '#/discrepancies/..%2F..%2Fv1%2Fapi-keys',
      '#/discrepancies/abc',
      `#/discrepancies/${TICKET}%2F..`,
      '#/imports/%2E%2E',
      '#/imports/%E0%A4%A',
      '#/accounts/..',
      '#/accounts/assets%2F..%2F..%2Fapi-keys',
      '#/accounts/%3Fcursor%3Dx',
      '#/payments/counts',
      '#/payments/..%2Fcounts',
      `#/payments/${TICKET}/steps`,
    ]) {
      expect(parseRoute(hash).name, hash).toBe('not-found');
    }
    expect(parseRoute(`#/imports/${TICKET.toUpperCase()}`)).toMatchObject({ name: 'import' });
    expect(parseRoute(`#/accounts/${TICKET}`)).toMatchObject({ name: 'account', param: TICKET });
    expect(parseRoute('#/accounts/assets%3Abank.eu-1_x')).toMatchObject({
      name: 'account',
      param: 'assets:bank.eu-1_x',
    });
  });
});
