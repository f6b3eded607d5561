import { createHash } from 'node:crypto';
import { FixedWidthWriter } from './fixed-width';
import { type Sums, sumsOf } from './sums';

export const LEAF_ENCODING_VERSION = 1;
export const ACCOUNT_CODE_BYTES = 128;
/** The accounts table's own CHECK on codes: ASCII only, so a fixed 128-byte field always holds it. */
export const ACCOUNT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export type NormalBalance = 'debit' | 'credit';

/** One account as a proof commits to it: its posted totals, both non-negative. */
export interface AccountLeaf {
  id: string;
  code: string;
  currency: string;
  normalBalance: NormalBalance;
  postedDebits: bigint;
  postedCredits: bigint;
}

/**
 * Leaf encoding, version 1 (208 bytes):
 *   u8 0x00 (leaf tag) | u16 version | 16 account id | 128 code (ASCII, NUL-padded) | 3 currency
 *   | u8 normal balance (0 debit, 1 credit) | u63 posted debits | u63 posted credits
 */
export function encodeLeaf(leaf: AccountLeaf): Buffer {
  if (leaf.normalBalance !== 'debit' && leaf.normalBalance !== 'credit')
    throw new RangeError(`normalBalance: ${String(leaf.normalBalance)}`);
  return new FixedWidthWriter()
    .uint('leaf tag', 0, 1)
    .uint('leaf version', LEAF_ENCODING_VERSION, 2)
    .uuid('account id', leaf.id)
    .ascii('account code', leaf.code, ACCOUNT_CODE_BYTES, ACCOUNT_CODE_PATTERN)
    .ascii('currency', leaf.currency, 3, CURRENCY_PATTERN)
    .uint('normal balance', leaf.normalBalance === 'debit' ? 0 : 1, 1)
    .u63('posted debits', leaf.postedDebits)
    .u63('posted credits', leaf.postedCredits)
    .toBuffer();
}

export function leafHash(leaf: AccountLeaf): Buffer {
  return createHash('sha256').update(encodeLeaf(leaf)).digest();
}

/** A debit-normal account's totals count in the debit-normal sums, a credit-normal one's in the others. */
export function leafSums(leaf: AccountLeaf): Sums {
  return leaf.normalBalance === 'debit'
    ? sumsOf(leaf.postedDebits, leaf.postedCredits, 0n, 0n)
    : sumsOf(0n, 0n, leaf.postedDebits, leaf.postedCredits);
}

/** debits - credits for a debit-normal account, credits - debits for a credit-normal one. */
export function leafBalance(leaf: AccountLeaf): bigint {
  return leaf.normalBalance === 'debit'
    ? leaf.postedDebits - leaf.postedCredits
    : leaf.postedCredits - leaf.postedDebits;
}
