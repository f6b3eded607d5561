import type { Side } from '../domain/balances';
import { balancesOf } from '../domain/balances';

/** An account as the API shows it: amounts are strings of minor units. */
export interface AccountView {
  id: string;
  code: string;
  name: string | null;
  currency: string;
  normalBalance: Side;
  allowNegative: boolean;
  metadata: Record<string, unknown>;
  balances: { posted: string; pending: string; available: string };
  version: string;
  createdAt: string;
}

export interface AccountRecord {
  id: string;
  code: string;
  name: string | null;
  currency: string;
  normalBalance: Side;
  allowNegative: boolean;
  metadata: Record<string, unknown>;
  postedDebits: bigint;
  postedCredits: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
  version: bigint;
  createdAt: Date;
}

export function toAccountView(account: AccountRecord): AccountView {
  const balances = balancesOf(account);
  return {
    id: account.id,
    code: account.code,
    name: account.name,
    currency: account.currency,
    normalBalance: account.normalBalance,
    allowNegative: account.allowNegative,
    metadata: account.metadata,
    balances: {
      posted: balances.posted.toString(),
      pending: balances.pending.toString(),
      available: balances.available.toString(),
    },
    version: account.version.toString(),
    createdAt: account.createdAt.toISOString(),
  };
}
