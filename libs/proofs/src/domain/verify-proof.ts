import { type AccountLeaf, leafBalance } from './account-leaf';
import { byCurrency } from './build-proof';
import { checkpointId, encodeCheckpoint, journalHeadDigest } from './checkpoint';
import { checkpointFromHeader, leafFromDocument, nodeFromDocument, sumsFromDocument } from './document-conversions';
import { EncodingRangeError } from './fixed-width';
import { journalSegmentReaches } from './journal-consistency';
import { merkleSumRoot, rootFromPath } from './merkle-sum-tree';
import {
  BALANCE_PROOF_FORMAT,
  type BalanceProofDocument,
  type CheckpointHeaderDocument,
  type InclusionProofDocument,
  balanceProofSchema,
  inclusionProofSchema,
} from './proof-document';
import { keyIdOf, signatureValid } from './signing';
import { sumsEqual, totalsOf } from './sums';

/** The checks, in the order they run; the first that fails ends the verification. */
export const CHECKS = [
  'format',
  'key',
  'encoding',
  'signature',
  'journal head',
  'totals',
  'balances',
  'tree',
  'inclusion',
  'consistency',
] as const;
export type CheckName = (typeof CHECKS)[number];

export interface CheckResult {
  check: CheckName;
  ok: boolean;
  detail: string;
}

export interface Verdict {
  ok: boolean;
  checks: CheckResult[];
  firstFailure: CheckResult | null;
}

export interface VerifyOptions {
  /** Also prove that this account (id or code) is counted in the totals. */
  account?: string;
  /** An earlier balance proof that this one's journal must extend. */
  previous?: unknown;
  /** Accept only this signing key (hex key id, as published at GET /v1/proofs/key). */
  trustedKeyId?: string;
}

class CheckFailed extends Error {}

function fail(detail: string): never {
  throw new CheckFailed(detail);
}

type Document =
  | { kind: 'balance'; proof: BalanceProofDocument; header: CheckpointHeaderDocument }
  | { kind: 'inclusion'; proof: InclusionProofDocument; header: CheckpointHeaderDocument };

function parse(input: unknown): Document {
  const isBalance = (input as { format?: unknown } | null)?.format === BALANCE_PROOF_FORMAT;
  const parsed = isBalance ? balanceProofSchema.safeParse(input) : inclusionProofSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  return isBalance
    ? { kind: 'balance', proof: parsed.data as BalanceProofDocument, header: parsed.data as CheckpointHeaderDocument }
    : {
        kind: 'inclusion',
        proof: parsed.data as InclusionProofDocument,
        header: (parsed.data as InclusionProofDocument).checkpoint,
      };
}

function checkHeader(header: CheckpointHeaderDocument, run: Runner, trustedKeyId: string | undefined): void {
  const publicKey = Buffer.from(header.publicKey, 'base64');
  run('key', () => {
    if (keyIdOf(publicKey).toString('hex') !== header.keyId) fail('keyId is not the SHA-256 of publicKey');
    if (trustedKeyId !== undefined && header.keyId !== trustedKeyId.toLowerCase())
      fail(`signed by key ${header.keyId}, not by the trusted key ${trustedKeyId}`);
    const pinning =
      trustedKeyId === undefined ? ' (not pinned: pass the published key id to pin it)' : ' (the trusted key)';
    return `key ${header.keyId}${pinning}`;
  });
  const encoding = run('encoding', () => {
    const bytes = encodeCheckpoint(checkpointFromHeader(header));
    if (checkpointId(bytes) !== header.id) fail('id is not the SHA-256 of the checkpoint encoding');
    return { detail: `${bytes.length} bytes, every field in range`, value: bytes };
  });
  run('signature', () => {
    if (!signatureValid(publicKey, encoding, Buffer.from(header.signature, 'base64')))
      fail('the Ed25519 signature does not match the checkpoint');
    return 'Ed25519 signature valid';
  });
  run('journal head', () => {
    const digest = journalHeadDigest(checkpointFromHeader(header).stripes).toString('hex');
    if (digest !== header.journal.head) fail(`journal.head is not the digest of the stripe heads (${digest})`);
    return `journal head ${digest} over ${header.journal.stripes.length} stripes`;
  });
  run('totals', () => {
    for (const root of header.currencies) {
      const totals = totalsOf(sumsFromDocument(root.sums));
      if (
        totals.debitNormal.toString() !== root.totals.debitNormal ||
        totals.creditNormal.toString() !== root.totals.creditNormal
      )
        fail(`${root.currency}: totals do not follow from the signed sums`);
      if (totals.debitNormal !== totals.creditNormal)
        fail(
          `${root.currency}: debit-normal total ${totals.debitNormal} differs from ` +
            `credit-normal total ${totals.creditNormal}`,
        );
    }
    return `${header.currencies.length} currencies, each balanced`;
  });
}

function checkTree(proof: BalanceProofDocument, run: Runner): void {
  run('balances', () => {
    const wrong = proof.accounts.find(
      (account) => leafBalance(leafFromDocument(account)).toString() !== account.balance,
    );
    if (wrong) fail(`account ${wrong.code}: balance ${wrong.balance} is not its posted totals' balance`);
    return `${proof.accounts.length} account balances follow from their totals`;
  });
  run('tree', () => {
    const leaves: AccountLeaf[] = proof.accounts.map(leafFromDocument);
    if (
      new Set(leaves.map((leaf) => leaf.id)).size !== leaves.length ||
      new Set(leaves.map((leaf) => leaf.code)).size !== leaves.length
    )
      fail('an account appears twice');
    const trees = byCurrency(leaves);
    if (trees.size !== proof.currencies.length)
      fail(`the accounts have ${trees.size} currencies, the checkpoint ${proof.currencies.length}`);
    for (const root of proof.currencies) {
      const group = trees.get(root.currency);
      if (group === undefined || group.length !== root.accounts)
        fail(`${root.currency}: ${group?.length ?? 0} accounts, the checkpoint says ${root.accounts}`);
      const computed = merkleSumRoot(group);
      if (computed.hash.toString('hex') !== root.root || !sumsEqual(computed.sums, sumsFromDocument(root.sums)))
        fail(`${root.currency}: the accounts do not give the signed Merkle sum root`);
    }
    return `${proof.currencies.length} Merkle sum roots recomputed from ${leaves.length} accounts`;
  });
}

function checkInclusion(document: Document, account: string | undefined, run: Runner): void {
  if (document.kind === 'balance' && account === undefined) return;
  run('inclusion', () => {
    const inclusion = document.kind === 'inclusion' ? document.proof : undefined;
    const leafDocument =
      inclusion?.account ??
      (document.kind === 'balance'
        ? document.proof.accounts.find((leaf) => leaf.id === account!.toLowerCase() || leaf.code === account)
        : undefined);
    if (leafDocument === undefined) fail(`account ${account} is not in the proof`);
    if (account !== undefined && leafDocument.id !== account.toLowerCase() && leafDocument.code !== account)
      fail(`the proof is for account ${leafDocument.code}, not ${account}`);
    const leaf = leafFromDocument(leafDocument);
    if (leafBalance(leaf).toString() !== leafDocument.balance)
      fail(`balance ${leafDocument.balance} is not the account's posted totals' balance`);
    const root = document.header.currencies.find((candidate) => candidate.currency === leaf.currency);
    if (root === undefined) fail(`no ${leaf.currency} tree in the checkpoint`);
    if (inclusion) {
      const computed = rootFromPath(leaf, inclusion.index, root.accounts, inclusion.path.map(nodeFromDocument));
      if (
        computed === undefined ||
        computed.hash.toString('hex') !== root.root ||
        !sumsEqual(computed.sums, sumsFromDocument(root.sums))
      )
        fail(`the path does not lead from account ${leaf.code} to the signed ${leaf.currency} root`);
    }
    return (
      `account ${leaf.code} (balance ${leafDocument.balance} ${leaf.currency}) ` +
      `is counted in the signed ${leaf.currency} totals`
    );
  });
}

type Runner = <T>(check: CheckName, work: () => string | { detail: string; value: T }) => T;

/** Verifies a balance proof or an inclusion proof with no database and no trust in the issuer's code. */
export function verifyProof(input: unknown, options: VerifyOptions = {}): Verdict {
  const checks: CheckResult[] = [];
  const run: Runner = (check, work) => {
    try {
      const outcome = work();
      const { detail, value } = typeof outcome === 'string' ? { detail: outcome, value: undefined } : outcome;
      checks.push({ check, ok: true, detail });
      return value as never;
    } catch (error) {
      if (!(error instanceof CheckFailed) && !(error instanceof EncodingRangeError)) throw error;
      checks.push({ check, ok: false, detail: error.message });
      throw new CheckFailed(error.message);
    }
  };
  try {
    const document = run('format', () => ({ detail: 'a well-formed proof document', value: parse(input) }));
    checkHeader(document.header, run, options.trustedKeyId);
    if (document.kind === 'balance') checkTree(document.proof, run);
    checkInclusion(document, options.account, run);
    if (options.previous !== undefined) run('consistency', () => checkConsistency(document, options));
  } catch (error) {
    if (!(error instanceof CheckFailed)) throw error;
  }
  const firstFailure = checks.find((check) => !check.ok) ?? null;
  return { ok: firstFailure === null, checks, firstFailure };
}

function checkConsistency(document: Document, options: VerifyOptions): string {
  const earlier = verifyProof(options.previous, { trustedKeyId: options.trustedKeyId });
  if (!earlier.ok)
    fail(`the previous proof fails its own ${earlier.firstFailure!.check} check: ${earlier.firstFailure!.detail}`);
  if ((options.previous as { format?: unknown }).format !== BALANCE_PROOF_FORMAT)
    fail('the previous proof must be a balance proof, not an inclusion proof');
  const previous = options.previous as BalanceProofDocument;
  if (document.kind !== 'balance' || document.proof.consistency === undefined)
    fail(`the proof carries no journal segment; export it with since=${previous.id}`);
  const segment = document.proof.consistency;
  if (segment.previousId !== previous.id)
    fail(`the journal segment starts at proof ${segment.previousId}, not at ${previous.id}`);
  if (previous.tenantId !== document.header.tenantId) fail('the two proofs are of different tenants');
  const problem = journalSegmentReaches(previous.journal.stripes, document.header.journal.stripes, segment.stripes);
  if (problem !== undefined) fail(problem);
  const links = segment.stripes.reduce((total, stripe) => total + stripe.links.length, 0);
  return `the journal extends proof ${previous.id} by ${links} links`;
}
