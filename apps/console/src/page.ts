import type { TemplateResult } from 'lit-html';
import type { Route } from './router';

/** Who the signed-in key is (GET /v1/api-keys/current). */
export interface Principal {
  id: string;
  tenantId: string;
  roles: string[];
}

/** What a page gets: its route, the key's principal, and a render that is ignored once the user has moved on. */
export interface PageContext {
  route: Route;
  principal: Principal;
  render(content: TemplateResult): void;
  navigate(hash: string): void;
  /** Show again the current route (after a change the page should re-read). */
  reload(): void;
  /** Whether the person is still on this page (false once they moved on): work in the background stops. */
  active(): boolean;
}

export type Page = (context: PageContext) => Promise<void>;

/** Finance works tickets, imports and runs; other roles only look. */
export function canWork(principal: Principal): boolean {
  return principal.roles.includes('finance');
}

/** Admins see and revoke the tenant's API keys. */
export function canAdminister(principal: Principal): boolean {
  return principal.roles.includes('admin');
}

/** Finance and admin edit the owner routes. */
export function canRoute(principal: Principal): boolean {
  return principal.roles.includes('finance') || principal.roles.includes('admin');
}
