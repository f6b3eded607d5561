import { EncodingRangeError, type FixedWidthWriter, U63_MAX } from './fixed-width';

/**
 * What a node of the Merkle sum tree adds up: posted debits and credits of the debit-normal accounts
 * and of the credit-normal accounts below it. All four are non-negative and at most 2^63 - 1, so no
 * sum can go negative or wrap, which is how naive sum trees were forged (a negative leaf hiding a
 * liability, an overflow wrapping a total).
 */
export interface Sums {
  debitNormalDebits: bigint;
  debitNormalCredits: bigint;
  creditNormalDebits: bigint;
  creditNormalCredits: bigint;
}

export const SUM_FIELDS = [
  'debitNormalDebits',
  'debitNormalCredits',
  'creditNormalDebits',
  'creditNormalCredits',
] as const;

export function sumsOf(
  debitNormalDebits: bigint,
  debitNormalCredits: bigint,
  creditNormalDebits: bigint,
  creditNormalCredits: bigint,
): Sums {
  return { debitNormalDebits, debitNormalCredits, creditNormalDebits, creditNormalCredits };
}

export function addSums(left: Sums, right: Sums): Sums {
  const total = {} as Sums;
  for (const field of SUM_FIELDS) {
    total[field] = left[field] + right[field];
    if (total[field] > U63_MAX) throw new EncodingRangeError(`${field}: sum exceeds 2^63-1`);
  }
  return total;
}

export function writeSums(writer: FixedWidthWriter, name: string, sums: Sums): FixedWidthWriter {
  for (const field of SUM_FIELDS) writer.u63(`${name}.${field}`, sums[field]);
  return writer;
}

export function sumsEqual(left: Sums, right: Sums): boolean {
  return SUM_FIELDS.every((field) => left[field] === right[field]);
}

/** The per-currency totals a proof states: both sides' balances, equal when the books balance. */
export function totalsOf(sums: Sums): { debitNormal: bigint; creditNormal: bigint } {
  return {
    debitNormal: sums.debitNormalDebits - sums.debitNormalCredits,
    creditNormal: sums.creditNormalCredits - sums.creditNormalDebits,
  };
}
