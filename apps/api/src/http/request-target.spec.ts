import { describe, expect, it } from 'vitest';
import { requestTargetProblem, withoutTrailingSlash } from './request-target';

describe('requestTargetProblem', () => {
  it('lets ordinary and percent-encoded UTF-8 targets through', () => {
    for (const target of [
      '/v1/accounts/assets:bank:main',
      '/v1/accounts/caf%C3%A9?limit=10&cursor=abc%3D',
      '/v1/transactions?metadata=%7B%22tier%22%3A%22%E2%82%AC%22%7D&status=posted',
      '/v1/transactions?externalRef=50%25+off',
      '/v1/accounts?flag',
    ])
      expect(requestTargetProblem(target), target).toBeNull();
  });

  it('names a path segment as path, a query value by its parameter, a bad parameter name as query', () => {
    expect(requestTargetProblem('/v1/accounts/%00')).toMatchObject({ path: 'path', message: /NUL/ });
    expect(requestTargetProblem('/v1/accounts/%c3%28')).toMatchObject({ path: 'path', message: /UTF-8/ });
    expect(requestTargetProblem('/v1/transactions?limit=1&account=a%00')).toMatchObject({ path: 'account' });
    expect(requestTargetProblem('/v1/transactions?external%52ef=%ED%A0%80')).toMatchObject({ path: 'externalRef' });
    expect(requestTargetProblem('/v1/transactions?a%FF=1')).toMatchObject({ path: 'query' });
  });
});

describe('withoutTrailingSlash', () => {
  const fileTrees = ['/console', '/docs'];

  it('removes one trailing slash of an API path, keeping the query, and leaves the file trees alone', () => {
    expect(withoutTrailingSlash('/v1/accounts/', fileTrees)).toBe('/v1/accounts');
    expect(withoutTrailingSlash('/v1/accounts/?limit=5', fileTrees)).toBe('/v1/accounts?limit=5');
    expect(withoutTrailingSlash('/v1/accounts?next=a/', fileTrees)).toBe('/v1/accounts?next=a/');
    expect(withoutTrailingSlash('/', fileTrees)).toBe('/');
    expect(withoutTrailingSlash('/console/', fileTrees)).toBe('/console/');
    expect(withoutTrailingSlash('/docs/', fileTrees)).toBe('/docs/');
  });
});
