import { html, type TemplateResult } from 'lit-html';
import { apiPath } from '../api-path';
import { type ListPage, api } from '../api-client';
import type { ApiKey, OwnerRoute } from '../api-types';
import { formatInstant, formatMinor } from '../format';
import { type Page, type Principal, canAdminister, canRoute } from '../page';
import { pagedSection } from './paged-section';
import { empty, explainError, notice } from './states';

export const SETTINGS_PAGE_SIZE = 50;

function keyState(key: ApiKey): string {
  if (key.revokedAt !== null) return `revoked ${formatInstant(key.revokedAt)}`;
  return key.expiresAt === null ? 'active' : `active until ${formatInstant(key.expiresAt)}`;
}

function keyRows(keys: ApiKey[], principal: Principal, revoke: (key: ApiKey) => void): TemplateResult {
  return html`<table class="compact keys">
    <caption class="visually-hidden">API keys, newest first</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Roles</th><th scope="col">Created</th>
      <th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>
      ${keys.map(
        (
          key,
        ) => html`<tr><td>${key.name}${key.id === principal.id ? html` <span class="muted">(this key)</span>` : ''}</td>
          <td>${key.roles.join(', ')}</td><td>${formatInstant(key.createdAt)}</td><td>${keyState(key)}</td>
          <td>${
            key.revokedAt === null
              ? html`<button type="button" class="secondary" aria-label="Revoke ${key.name}"
                  @click=${() => revoke(key)}>Revoke</button>`
              : ''
          }</td></tr>`,
      )}
    </tbody>
  </table>`;
}

function criteria(route: OwnerRoute): string {
  const parts = [
    route.kind ? `kind ${route.kind}` : '',
    route.source ? `source ${route.source}` : '',
    route.accountPrefix ? `account ${route.accountPrefix}…` : '',
    route.minAmount ? `at least ${formatMinor(route.minAmount, null)} (minor units)` : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'every ticket (default)' : parts.join(', ');
}

function routeRows(routes: OwnerRoute[], remove: (route: OwnerRoute) => void): TemplateResult {
  return html`<table class="compact routes">
    <caption class="visually-hidden">Owner routes in the order they apply</caption>
    <thead><tr><th scope="col" class="number">Priority</th><th scope="col">Tickets</th><th scope="col">Owner</th>
      <th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>
      ${routes.map(
        (route) => html`<tr><td class="number">${route.priority}</td><td>${criteria(route)}</td>
          <td>${route.owner}</td><td><button type="button" class="secondary"
            aria-label="Delete the route to ${route.owner} (priority ${route.priority})"
            @click=${() => remove(route)}>Delete</button></td></tr>`,
      )}
    </tbody>
  </table>`;
}

/** The tenant's API keys (admin) and owner routes (finance, admin): revoke a key, delete a route. */
export const settingsPage: Page = async (context) => {
  const { principal } = context;
  let keys: TemplateResult = html``;
  let routes: TemplateResult = html``;
  let outcome = notice(undefined);
  const draw = () =>
    context.render(html`<h1 tabindex="-1">Settings</h1>
      ${outcome}
      ${
        canAdminister(principal)
          ? html`<section aria-labelledby="keys-heading"><h2 id="keys-heading">API keys</h2>${keys}</section>`
          : ''
      }
      ${
        canRoute(principal)
          ? html`<section aria-labelledby="routes-heading"><h2 id="routes-heading">Owner routes</h2>
            <p class="muted">New tickets go to the owner of the first route that fits, lowest priority first.</p>
            ${routes}</section>`
          : ''
      }`);
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      outcome = notice(done);
    } catch (error) {
      outcome = notice(explainError(error), 'error');
    }
    await Promise.all([showKeys(), showRoutes()]);
  };
  // A revoked key cannot be brought back: the browser asks first.
  const revoke = (key: ApiKey) => {
    if (!window.confirm(`Revoke the key ${key.name}? It stops working and cannot be brought back.`)) return;
    void act(() => api.delete(apiPath`/v1/api-keys/${key.id}`), `Key ${key.name} revoked.`);
  };
  const remove = (route: OwnerRoute) =>
    void act(() => api.delete(apiPath`/v1/owner-routes/${route.id}`), `Route to ${route.owner} deleted.`);
  const showKeys = async () => {
    if (!canAdminister(principal)) return;
    await pagedSection<ApiKey>({
      what: 'API keys',
      load: (cursor) => api.get<ListPage<ApiKey>>(apiPath`/v1/api-keys`, { cursor, limit: String(SETTINGS_PAGE_SIZE) }),
      rows: (items) => keyRows(items, principal, revoke),
      empty: empty('No API keys.'),
      update: (next) => {
        keys = next;
        draw();
      },
    });
  };
  const showRoutes = async () => {
    if (!canRoute(principal)) return;
    await pagedSection<OwnerRoute>({
      what: 'owner routes',
      load: (cursor) =>
        api.get<ListPage<OwnerRoute>>(apiPath`/v1/owner-routes`, { cursor, limit: String(SETTINGS_PAGE_SIZE) }),
      rows: (items) => routeRows(items, remove),
      empty: empty('No owner routes: every ticket is unassigned until someone takes it.'),
      update: (next) => {
        routes = next;
        draw();
      },
    });
  };
  draw();
  await Promise.all([showKeys(), showRoutes()]);
};
