import type { Query } from './api-client';

// Hash routes (`#/discrepancies/<id>`): the server serves one index.html, and back/forward just work.

export type RouteName =
  | 'queue'
  | 'ticket'
  | 'imports'
  | 'import'
  | 'runs'
  | 'accounts'
  | 'account'
  | 'proofs'
  | 'not-found';

export interface Route {
  name: RouteName;
  /** The path's parameter: a ticket or import id, an account code. */
  param: string;
  query: URLSearchParams;
}

const ROUTES: ReadonlyArray<[RegExp, RouteName]> = [
  [/^\/?$/, 'queue'],
  [/^\/discrepancies$/, 'queue'],
  [/^\/discrepancies\/([^/]+)$/, 'ticket'],
  [/^\/imports$/, 'imports'],
  [/^\/imports\/([^/]+)$/, 'import'],
  [/^\/runs$/, 'runs'],
  [/^\/accounts$/, 'accounts'],
  [/^\/accounts\/([^/]+)$/, 'account'],
  [/^\/proofs$/, 'proofs'],
];

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  for (const [pattern, name] of ROUTES) {
    const found = pattern.exec(path);
    if (found) return { name, param: decodeURIComponent(found[1] ?? ''), query };
  }
  return { name: 'not-found', param: path, query };
}

/** `link('/accounts', 'assets:bank')` -> `#/accounts/assets%3Abank`; empty query values are left out. */
export function link(path: string, param?: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return `#${path}${param === undefined ? '' : `/${encodeURIComponent(param)}`}${text ? `?${text}` : ''}`;
}
