import { type AccountLeaf, leafBalance } from './account-leaf';
import { type StripeHead, checkpointId, encodeCheckpoint, journalHeadDigest } from './checkpoint';
import { leafFromDocument, nodeToDocument, sumsToDocument } from './document-conversions';
import { inclusionPath, merkleSumRoot } from './merkle-sum-tree';
import {
  BALANCE_PROOF_FORMAT,
  type BalanceProofDocument,
  INCLUSION_PROOF_FORMAT,
  type InclusionProofDocument,
  headerOf,
} from './proof-document';
import { type ProofKey, signEncoding } from './signing';
import { totalsOf } from './sums';

export interface BooksAtPosition {
  tenantId: string;
  asOf: Date;
  issuedAt: Date;
  stripes: readonly StripeHead[];
  accounts: readonly AccountLeaf[];
}

/** Tree order: by currency, then by account id. One tree per currency. */
export function byCurrency(accounts: readonly AccountLeaf[]): Map<string, AccountLeaf[]> {
  const sorted = [...accounts].sort((left, right) =>
    left.currency === right.currency ? (left.id < right.id ? -1 : 1) : left.currency < right.currency ? -1 : 1,
  );
  const groups = new Map<string, AccountLeaf[]>();
  for (const leaf of sorted) {
    const group = groups.get(leaf.currency);
    if (group) group.push(leaf);
    else groups.set(leaf.currency, [leaf]);
  }
  return groups;
}

/** Builds and signs the balance proof of a tenant's books at one journal position. */
export function buildBalanceProof(books: BooksAtPosition, key: ProofKey): BalanceProofDocument {
  const trees = [...byCurrency(books.accounts)].map(([currency, leaves]) => ({
    currency,
    leaves,
    root: merkleSumRoot(leaves),
  }));
  const currencies = trees.map((tree) => ({
    currency: tree.currency,
    accounts: tree.leaves.length,
    root: tree.root.hash,
    sums: tree.root.sums,
  }));
  const encoding = encodeCheckpoint({ ...books, keyId: key.keyId, currencies });
  const signature = signEncoding(key, encoding);
  return {
    format: BALANCE_PROOF_FORMAT,
    id: checkpointId(encoding),
    tenantId: books.tenantId,
    asOf: books.asOf.toISOString(),
    issuedAt: books.issuedAt.toISOString(),
    keyId: key.keyId.toString('hex'),
    publicKey: key.publicKeyDer.toString('base64'),
    journal: {
      head: journalHeadDigest(books.stripes).toString('hex'),
      stripes: books.stripes.map((head) => ({
        stripe: head.stripe,
        seq: head.seq.toString(),
        hash: head.hash.toString('hex'),
      })),
    },
    currencies: currencies.map((root) => {
      const totals = totalsOf(root.sums);
      return {
        currency: root.currency,
        accounts: root.accounts,
        root: root.root.toString('hex'),
        sums: sumsToDocument(root.sums),
        totals: { debitNormal: totals.debitNormal.toString(), creditNormal: totals.creditNormal.toString() },
      };
    }),
    signature: signature.toString('base64'),
    accounts: trees.flatMap((tree) =>
      tree.leaves.map((leaf) => ({
        ...leaf,
        postedDebits: leaf.postedDebits.toString(),
        postedCredits: leaf.postedCredits.toString(),
        balance: leafBalance(leaf).toString(),
      })),
    ),
  };
}

/** The path that shows one account (by id or code) is counted in its currency's totals. */
export function inclusionProofOf(proof: BalanceProofDocument, account: string): InclusionProofDocument | undefined {
  const document = proof.accounts.find((leaf) => leaf.id === account.toLowerCase() || leaf.code === account);
  if (document === undefined) return undefined;
  const leaves = byCurrency(proof.accounts.map(leafFromDocument)).get(document.currency)!;
  const index = leaves.findIndex((leaf) => leaf.id === document.id);
  return {
    format: INCLUSION_PROOF_FORMAT,
    checkpoint: headerOf(proof),
    account: document,
    index,
    path: inclusionPath(leaves, index).map(nodeToDocument),
  };
}
