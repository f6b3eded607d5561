import { html, type TemplateResult } from 'lit-html';
import { ApiError } from '../api-client';

export function loading(what: string): TemplateResult {
  return html`<p class="state" role="status">Loading ${what}…</p>`;
}

export function empty(message: string, action?: TemplateResult): TemplateResult {
  return html`<div class="state empty"><p>${message}</p>${action ?? ''}</div>`;
}

function explain(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.code === 'FORBIDDEN') return `Your key's roles do not allow this (${error.message}).`;
  return `${error.message} (${error.code})`;
}

/** An error the person can read, and a way to try again where that makes sense. */
export function failure(error: unknown, retry?: () => void): TemplateResult {
  return html`<div class="state error" role="alert">
    <p>${explain(error)}</p>
    ${retry ? html`<button type="button" @click=${retry}>Try again</button>` : ''}
  </div>`;
}

/** The outcome of an action, announced to screen readers. */
export function notice(message: string | undefined, kind: 'ok' | 'error' = 'ok'): TemplateResult {
  return html`<p class="notice ${kind}" role=${kind === 'error' ? 'alert' : 'status'}>${message ?? ''}</p>`;
}

export { explain as explainError };
