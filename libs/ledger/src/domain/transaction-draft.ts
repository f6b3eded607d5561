import { DomainError } from '@ledger/errors';
import type { Side } from './balances';

export interface DraftLeg {
  /** An account id (UUID) or code. */
  account: string;
  direction: Side;
  amountMinor: bigint;
  currency: string;
}

export interface TransactionDraft {
  externalRef: string | undefined;
  description: string | undefined;
  effectiveAt: Date | undefined;
  metadata: Record<string, unknown>;
  legs: DraftLeg[];
}

/** debits - credits per currency; a balanced transaction has every value 0n. */
export function netByCurrency(legs: readonly DraftLeg[]): Map<string, bigint> {
  const net = new Map<string, bigint>();
  for (const leg of legs) {
    const signed = leg.direction === 'debit' ? leg.amountMinor : -leg.amountMinor;
    net.set(leg.currency, (net.get(leg.currency) ?? 0n) + signed);
  }
  return net;
}

/** The rules a transaction must meet before any account is touched. */
export function assertBalanced(legs: readonly DraftLeg[]): void {
  const unbalanced = [...netByCurrency(legs)].filter(([, net]) => net !== 0n);
  if (unbalanced.length > 0) {
    throw new DomainError('UNBALANCED', 'debits and credits must be equal in every currency', {
      currencies: unbalanced.map(([currency, net]) => ({ currency, debitsMinusCredits: net.toString() })),
    });
  }
}

export function assertDistinctAccounts(legs: readonly DraftLeg[]): void {
  const seen = new Set<string>();
  for (const [index, leg] of legs.entries()) {
    if (seen.has(leg.account)) {
      throw new DomainError('VALIDATION_FAILED', 'an account may appear in only one leg of a transaction', {
        fields: [
          { path: `entries.${index}.account`, message: `account ${leg.account} already appears in another leg` },
        ],
      });
    }
    seen.add(leg.account);
  }
}
