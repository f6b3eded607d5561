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
  | 'payments'
  | 'payment'
  | 'settings'
  | 'not-found';

export interface Route {
  name: RouteName;
  /** The path's parameter: a ticket, import or payment order id, an account code. */
  param: string;
  query: URLSearchParams;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The API's account code rule (create-account.schema.ts); an account route also takes the account's id. */
const ACCOUNT_CODE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

type ParamRule = (param: string) => boolean;
const isId: ParamRule = (param) => UUID.test(param);
const isAccountRef: ParamRule = (param) => ACCOUNT_CODE.test(param) || UUID.test(param);

const ROUTES: ReadonlyArray<[RegExp, RouteName, ParamRule?]> = [
  [/^\/?$/, 'queue'],
  [/^\/discrepancies$/, 'queue'],
  [/^\/discrepancies\/([^/]+)$/, 'ticket', isId],
  [/^\/imports$/, 'imports'],
  [/^\/imports\/([^/]+)$/, 'import', isId],
  [/^\/runs$/, 'runs'],
  [/^\/accounts$/, 'accounts'],
  [/^\/accounts\/([^/]+)$/, 'account', isAccountRef],
  [/^\/proofs$/, 'proofs'],
  [/^\/payments$/, 'payments'],
  [/^\/payments\/([^/]+)$/, 'payment', isId],
  [/^\/settings$/, 'settings'],
];

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // a lone or broken %-escape
  }
}

/**
 * The page of a hash. A parameter that is not what its page expects (a ticket id that is no UUID, an account
 * code with a `/` in it) makes the link a bad one: "not found", and no request for it leaves the console.
 */
export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  for (const [pattern, name, rule] of ROUTES) {
    const found = pattern.exec(path);
    if (!found) continue;
    const param = decoded(found[1] ?? '');
    if (param === undefined || (rule !== undefined && !rule(param))) break;
    return { name, param, query };
  }
  return { name: 'not-found', param: decoded(path) ?? path, query };
}

/** `link('/accounts', 'assets:bank')` -> `#/accounts/assets%3Abank`; empty query values are left out. */
export function link(path: string, param?: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return `#${path}${param === undefined ? '' : `/${encodeURIComponent(param)}`}${text ? `?${text}` : ''}`;
}
