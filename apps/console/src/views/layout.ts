import { html, type TemplateResult } from 'lit-html';
import { type Principal, canRoute } from '../page';
import type { Route, RouteName } from '../router';

const SECTIONS: ReadonlyArray<{
  label: string;
  hash: string;
  routes: RouteName[];
  shown?: (principal: Principal) => boolean;
}> = [
  { label: 'Discrepancies', hash: '#/discrepancies', routes: ['queue', 'ticket'] },
  { label: 'Imports', hash: '#/imports', routes: ['imports', 'import'] },
  { label: 'Reconciliation runs', hash: '#/runs', routes: ['runs'] },
  { label: 'Accounts', hash: '#/accounts', routes: ['accounts', 'account'] },
  { label: 'Proofs', hash: '#/proofs', routes: ['proofs'] },
  { label: 'Payments', hash: '#/payments', routes: ['payments', 'payment'] },
  // API keys for admins, owner routes for finance and admin: the page shows what the roles allow.
  { label: 'Settings', hash: '#/settings', routes: ['settings'], shown: canRoute },
];

export function layout(
  route: Route,
  principal: Principal,
  signOut: () => void,
  content: TemplateResult,
): TemplateResult {
  return html`<header class="top">
      <span class="brand">Ledger console</span>
      <nav aria-label="Sections">
        <ul>
          ${SECTIONS.filter((section) => section.shown?.(principal) ?? true).map(
            (section) =>
              html`<li><a href=${section.hash}
                aria-current=${section.routes.includes(route.name) ? 'page' : 'false'}>${section.label}</a></li>`,
          )}
        </ul>
      </nav>
      <span class="who">Key roles: ${principal.roles.join(', ')}</span>
      <button type="button" class="secondary" @click=${signOut}>Sign out</button>
    </header>
    <main id="main">${content}</main>`;
}
