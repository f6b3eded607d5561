import type { Side } from '../domain/balances';

export interface EntryView {
  leg: number;
  accountId: string;
  accountCode: string;
  direction: Side;
  amount: string;
  currency: string;
}

export interface TransactionView {
  id: string;
  status: 'posted' | 'pending';
  externalRef: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  effectiveAt: string;
  createdAt: string;
  entries: EntryView[];
}
