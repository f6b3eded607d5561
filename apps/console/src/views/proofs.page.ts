import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { ApiError, api } from '../api-client';
import type { BalanceProof, BalanceProofCheckpoint } from '../api-types';
import type { Page, PageContext } from '../page';
import { explainError, failure, loading, notice } from './states';

const PROOF_PATH = apiPath`/v1/proofs/balances`;

/** Hands the proof to the browser as a file, exactly as the server signed it. */
function download(proof: BalanceProof): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `balance-proof-${proof.asOf.replaceAll(':', '-')}.json`;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const NOT_AVAILABLE = html`<p class="state empty" role="status">Proofs are not available on this server.</p>`;

function proofFacts(proof: BalanceProof): TemplateResult {
  const facts: [string, string][] = [
    ['id', proof.id],
    ['as of', proof.asOf],
    ['issued at', proof.issuedAt],
    ['accounts', String(proof.accounts.length)],
    ['journal head', proof.journal.head],
    ['signing key id', proof.keyId],
  ];
  return html`<dl class="facts">${facts.map(
    ([key, value]) => html`<dt>${key}</dt><dd><code>${value}</code></dd>`,
  )}</dl>`;
}

type Latest = { kind: 'proof'; proof: BalanceProof } | { kind: 'none' } | { kind: 'unavailable' };

/** The latest stored proof; reading it never issues one. */
async function latestProof(): Promise<Latest> {
  try {
    return { kind: 'proof', proof: await api.get<BalanceProof>(PROOF_PATH) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    // A server older than the proofs endpoint answers a plain 404 for the route.
    return error.code === 'PROOF_NOT_FOUND' ? { kind: 'none' } : { kind: 'unavailable' };
  }
}

/**
 * Auditors read the latest signed balance proof and download it; "Issue a new proof" asks the server
 * to sign the books now, which answers the stored proof while the journal has not moved since it.
 */
export const proofsPage: Page = async (context) => {
  const heading = html`<h1 tabindex="-1">Balance proofs</h1>`;
  context.render(html`${heading}${loading('the latest proof')}`);
  await show(context, heading, undefined);
};

async function show(context: PageContext, heading: TemplateResult, message: TemplateResult | undefined) {
  let latest: Latest;
  try {
    latest = await latestProof();
  } catch (error) {
    context.render(html`${heading}${failure(error, context.reload)}`);
    return;
  }
  if (latest.kind === 'unavailable') {
    context.render(html`${heading}${NOT_AVAILABLE}`);
    return;
  }
  const shownId = latest.kind === 'proof' ? latest.proof.id : undefined;
  const issue = async () => {
    let issued: BalanceProofCheckpoint;
    try {
      issued = await api.post<BalanceProofCheckpoint>(PROOF_PATH, {});
    } catch (error) {
      await show(context, heading, notice(explainError(error), 'error'));
      return;
    }
    const said =
      issued.id === shownId
        ? 'The books have not moved since this proof: it still stands, nothing new was signed.'
        : `Proof ${issued.id.slice(0, 12)}… issued.`;
    await show(context, heading, notice(said));
  };
  const issueButton = html`<button type="button" @click=${issue}>Issue a new proof</button>`;
  if (latest.kind === 'none') {
    context.render(html`${heading}${message ?? ''}
      <p class="state empty">No balance proof has been issued yet.</p>
      ${issueButton}`);
    return;
  }
  const { proof } = latest;
  context.render(html`${heading}${message ?? ''}
    <p>The latest signed proof of every account's balance as of ${proof.asOf}: the Merkle-sum roots, the journal
      head hash and the server's signature, which a tool you trust can check.</p>
    ${proofFacts(proof)}
    <button type="button" @click=${() => download(proof)}>Download proof (JSON)</button>
    ${issueButton}`);
}
