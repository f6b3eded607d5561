import type { Side } from '../domain/balances';

export type TransactionStatus = 'posted' | 'pending' | 'voided' | 'expired';

export interface EntryView {
  leg: number;
  accountId: string;
  accountCode: string;
  direction: Side;
  /** A hold's entry: reserves the amount, does not move the posted balance. */
  pending: boolean;
  amount: string;
  currency: string;
}

export interface TransactionView {
  id: string;
  status: TransactionStatus;
  externalRef: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  effectiveAt: string;
  createdAt: string;
  /** Holds only: when the worker releases it if nobody posts or voids it. */
  expiresAt: string | null;
  /** A capture, void or expiry record: the hold it resolves. */
  holdId: string | null;
  /** A reversal: the transaction it mirrors. */
  reversesId: string | null;
  /** Who made it: `api-key:<key id>`, `cli:<os user>`, `expiry`, `inbound:<source id>`, ... */
  actor: string;
  /** The reversal of this transaction, if any. */
  reversedById: string | null;
  /** A hold's resolution, if any: the capture, void or expiry record. */
  resolution: { id: string; status: TransactionStatus } | null;
  entries: EntryView[];
  /** Where this transaction sits in the tenant's hash-chained journal. */
  journal: { stripe: number; seq: string; hash: string };
}
