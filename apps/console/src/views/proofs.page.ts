import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { ApiError, api } from '../api-client';
import type { Page } from '../page';
import { failure, loading } from './states';

const PROOF_PATH = apiPath`/v1/proofs/balances`;

/** Hands the proof to the browser as a file, exactly as the server signed it. */
function download(proof: unknown, asOf: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `balance-proof-${asOf.replaceAll(':', '-')}.json`;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const NOT_AVAILABLE = html`<p class="state empty" role="status">Proofs are not available on this server.</p>`;

function proofFacts(proof: Record<string, unknown> | undefined): TemplateResult {
  const shown = Object.entries(proof ?? {}).filter(
    ([, value]) => typeof value === 'string' || typeof value === 'number',
  );
  return html`<dl class="facts">${shown.map(
    ([key, value]) => html`<dt>${key}</dt><dd><code>${String(value)}</code></dd>`,
  )}</dl>`;
}

/**
 * Auditors download a signed balance proof. The proofs endpoint is newer than the console: a server
 * without it answers 404, and the page says so instead of offering a button that cannot work.
 */
export const proofsPage: Page = async (context) => {
  const heading = html`<h1 tabindex="-1">Balance proofs</h1>`;
  context.render(html`${heading}${loading('the current proof')}`);
  let proof: Record<string, unknown> | undefined;
  const asOf = new Date().toISOString();
  try {
    proof = await api.get<Record<string, unknown> | undefined>(PROOF_PATH, { asOf });
  } catch (error) {
    const missing = error instanceof ApiError && error.status === 404;
    context.render(html`${heading}${missing ? NOT_AVAILABLE : failure(error, context.reload)}`);
    return;
  }
  context.render(html`${heading}
    <p>A signed proof of every account's balance as of ${asOf}: the Merkle-sum root, the journal head hash and the
      server's signature, which a tool you trust can check.</p>
    ${proofFacts(proof)}
    <button type="button" @click=${() => download(proof, asOf)}>Download proof (JSON)</button>`);
};
