/** A journal link as the exports write it: accounts by code, amounts in minor units. */
export interface ExportedTransaction {
  id: string;
  stripe: number;
  seq: bigint;
  hash: string;
  status: string;
  effectiveAt: Date;
  externalRef: string | null;
  description: string | null;
  holdId: string | null;
  reversesId: string | null;
  /** A currency conversion, as its metadata records it; null for every other transaction. */
  conversion: { fromCurrency: string; toCurrency: string; rate: string; rounding: string; remainder: string } | null;
  entries: {
    leg: number;
    account: string;
    direction: 'debit' | 'credit';
    pending: boolean;
    amountMinor: bigint;
    currency: string;
  }[];
}

/** An account's closing balance in the export, as debits and credits. */
export interface ClosingBalance {
  code: string;
  currency: string;
  postedDebits: bigint;
  postedCredits: bigint;
}
