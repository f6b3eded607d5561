import type { AccountLeaf } from './account-leaf';
import type { Checkpoint } from './checkpoint';
import type { SumNode } from './merkle-sum-tree';
import type { AccountLeafDocument, CheckpointHeaderDocument, SumsDocument } from './proof-document';
import { SUM_FIELDS, type Sums } from './sums';

// Between the JSON documents (strings) and the values that are encoded and hashed (bigint, bytes).

export function sumsFromDocument(sums: SumsDocument): Sums {
  return Object.fromEntries(SUM_FIELDS.map((field) => [field, BigInt(sums[field])])) as unknown as Sums;
}

export function sumsToDocument(sums: Sums): SumsDocument {
  return Object.fromEntries(SUM_FIELDS.map((field) => [field, sums[field].toString()])) as unknown as SumsDocument;
}

export function leafFromDocument(account: AccountLeafDocument): AccountLeaf {
  return { ...account, postedDebits: BigInt(account.postedDebits), postedCredits: BigInt(account.postedCredits) };
}

export function nodeFromDocument(node: { hash: string; sums: SumsDocument }): SumNode {
  return { hash: Buffer.from(node.hash, 'hex'), sums: sumsFromDocument(node.sums) };
}

export function nodeToDocument(node: SumNode): { hash: string; sums: SumsDocument } {
  return { hash: node.hash.toString('hex'), sums: sumsToDocument(node.sums) };
}

export function checkpointFromHeader(header: CheckpointHeaderDocument): Checkpoint {
  return {
    tenantId: header.tenantId,
    asOf: new Date(header.asOf),
    issuedAt: new Date(header.issuedAt),
    keyId: Buffer.from(header.keyId, 'hex'),
    stripes: header.journal.stripes.map((head) => ({
      stripe: head.stripe,
      seq: BigInt(head.seq),
      hash: Buffer.from(head.hash, 'hex'),
    })),
    currencies: header.currencies.map((root) => ({
      currency: root.currency,
      accounts: root.accounts,
      root: Buffer.from(root.root, 'hex'),
      sums: sumsFromDocument(root.sums),
    })),
  };
}
