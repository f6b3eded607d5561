import { apiPath } from './api-path';
import './styles.css';
import { html, render, type TemplateResult } from 'lit-html';
import { ApiError, api } from './api-client';
import type { Page, PageContext, Principal } from './page';
import { type RouteName, parseRoute } from './router';
import { forgetApiKey, keepApiKey, readApiKey } from './session';
import { accountPage } from './views/account.page';
import { accountsPage } from './views/accounts.page';
import { importPage } from './views/import.page';
import { importsPage } from './views/imports.page';
import { layout } from './views/layout';
import { paymentPage } from './views/payment.page';
import { paymentsPage } from './views/payments.page';
import { proofsPage } from './views/proofs.page';
import { queuePage } from './views/queue.page';
import { runsPage } from './views/runs.page';
import { settingsPage } from './views/settings.page';
import { signIn } from './views/sign-in';
import { failure } from './views/states';
import { ticketPage } from './views/ticket.page';

const notFound: Page = async (context) => {
  context.render(html`<h1 tabindex="-1">Page not found</h1>
    <p>Nothing lives at <code>${context.route.param}</code>.
      <a href="#/discrepancies">Go to the discrepancy queue</a>.</p>`);
};

const PAGES: Record<RouteName, Page> = {
  queue: queuePage,
  ticket: ticketPage,
  imports: importsPage,
  import: importPage,
  runs: runsPage,
  accounts: accountsPage,
  account: accountPage,
  proofs: proofsPage,
  payments: paymentsPage,
  payment: paymentPage,
  settings: settingsPage,
  'not-found': notFound,
};

const root = document.getElementById('app')!;
let principal: Principal | undefined;
/** Bumped on every navigation: renders of a page the user has left are dropped. */
let generation = 0;

function showSignIn(problem?: string): void {
  principal = undefined;
  forgetApiKey();
  render(signIn(submitKey, problem), root);
  // A refused key does not stay in the field; the field takes focus so the next one can be typed at once.
  const field = root.querySelector<HTMLInputElement>('#api-key');
  if (field) field.value = '';
  field?.focus();
}

async function submitKey(apiKey: string): Promise<void> {
  keepApiKey(apiKey);
  await show();
}

function signOut(): void {
  showSignIn();
}

async function show(): Promise<void> {
  const current = ++generation;
  if (readApiKey() === null) return showSignIn();
  try {
    principal ??= await api.get<Principal>(apiPath`/v1/api-keys/current`);
  } catch (error) {
    const refused = error instanceof ApiError && error.status === 401;
    return showSignIn(
      refused
        ? 'This API key was not accepted. Check it and try again.'
        : `Cannot sign in: ${(error as Error).message}`,
    );
  }
  const route = parseRoute(location.hash);
  const who = principal;
  let focused = false;
  const context: PageContext = {
    route,
    principal: who,
    render(content: TemplateResult) {
      if (current !== generation) return;
      render(layout(route, who, signOut, content), root);
      if (focused) return;
      // A new page: move focus to its heading, as a full page load would put the reader at the top.
      focused = true;
      root.querySelector<HTMLElement>('main h1')?.focus();
    },
    navigate(hash: string) {
      location.hash = hash;
    },
    reload() {
      void show();
    },
    active: () => current === generation,
  };
  try {
    await PAGES[route.name](context);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      return showSignIn('The server no longer accepts this key; sign in again.');
    context.render(html`<h1 tabindex="-1">Something went wrong</h1>${failure(error, context.reload)}`);
  }
}

window.addEventListener('hashchange', () => void show());
void show();
