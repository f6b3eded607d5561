import { html, type TemplateResult } from 'lit-html';
import type { Principal } from '../page';
import type { Route, RouteName } from '../router';

const SECTIONS: ReadonlyArray<{ label: string; hash: string; routes: RouteName[] }> = [
  { label: 'Discrepancies', hash: '#/discrepancies', routes: ['queue', 'ticket'] },
  { label: 'Imports', hash: '#/imports', routes: ['imports', 'import'] },
  { label: 'Reconciliation runs', hash: '#/runs', routes: ['runs'] },
  { label: 'Accounts', hash: '#/accounts', routes: ['accounts', 'account'] },
  { label: 'Proofs', hash: '#/proofs', routes: ['proofs'] },
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
          ${SECTIONS.map(
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
