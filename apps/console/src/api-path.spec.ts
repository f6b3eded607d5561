import { describe, expect, it } from 'vitest';
import { apiPath } from './api-path';

describe('apiPath', () => {
  it('encodes each value as one path segment', () => {
    expect(apiPath`/v1/discrepancies`).toBe('/v1/discrepancies');
    expect(apiPath`/v1/accounts/${'assets:bank'}/balance`).toBe('/v1/accounts/assets%3Abank/balance');
    expect(apiPath`/v1/discrepancies/${'../../v1/api-keys'}`).toBe('/v1/discrepancies/..%2F..%2Fv1%2Fapi-keys');
    expect(apiPath`/v1/imports/${'a?b#c%d e'}/lines`).toBe('/v1/imports/a%3Fb%23c%25d%20e/lines');
  });

  it('refuses a value that would still be a dot segment or no segment at all', () => {
    for (const value of ['', '.', '..']) expect(() => apiPath`/v1/discrepancies/${value}`).toThrow(RangeError);
  });

  it('makes paths that resolve under the endpoint they name', () => {
    for (const value of ['..%2F..', '../..', '%2e%2e', '..\\..', '/v1/api-keys']) {
      const resolved = new URL(apiPath`/v1/discrepancies/${value}`, 'https://ledger.example');
      expect(resolved.pathname.startsWith('/v1/discrepancies/'), value).toBe(true);
      expect(resolved.search).toBe('');
    }
  });
});
