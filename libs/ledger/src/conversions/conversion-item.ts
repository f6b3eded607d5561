import { canonicalJson, newId, sha256 } from '@ledger/ids';
import { type ConversionAmounts, type RoundingMode, positionAccountCode } from '../domain/conversion';
import type { NewItem } from '../transactions/new-item';

/** What a conversion records in its transaction's metadata (`metadata.conversion`). */
export interface ConversionMetadata {
  from: { account: string; currency: string; amount: string };
  to: { account: string; currency: string; amount: string };
  rate: string;
  rounding: RoundingMode;
  /** The exact product in minor units of `to`, before rounding. */
  exactToAmount: string;
  /** exact - rounded, in minor units of `to`. */
  remainder: string;
  quoteId: string | null;
}

export interface ConversionDraft {
  from: { account: string; currency: string; amountMinor: bigint };
  to: { account: string; currency: string };
  rate: string;
  rounding: RoundingMode;
  amounts: ConversionAmounts;
  quoteId: string | null;
  externalRef: string | null;
  description: string | null;
  /** What an externalRef stands for: the request as sent. */
  request: unknown;
}

/**
 * The conversion's one transaction of four entries, each currency zero-sum on its own: the customer's
 * `from` account pays the `from` position, the `to` position pays the customer's `to` account.
 */
export function conversionItem(draft: ConversionDraft, actor: string, now: Date): NewItem {
  const { from, to, amounts } = draft;
  const metadata: ConversionMetadata = {
    from: { account: from.account, currency: from.currency, amount: from.amountMinor.toString() },
    to: { account: to.account, currency: to.currency, amount: amounts.toAmountMinor.toString() },
    rate: draft.rate,
    rounding: draft.rounding,
    exactToAmount: amounts.exactToAmount,
    remainder: amounts.remainder,
    quoteId: draft.quoteId,
  };
  return {
    id: newId(now.getTime()),
    status: 'posted',
    externalRef: draft.externalRef,
    contentHash: sha256(canonicalJson({ conversion: draft.request })),
    description: draft.description,
    metadata: { conversion: metadata },
    effectiveAt: now,
    createdAt: now,
    expiresAt: null,
    holdId: null,
    reversesId: null,
    actor,
    legs: [
      { account: from.account, direction: 'debit', amountMinor: from.amountMinor, currency: from.currency },
      {
        account: positionAccountCode(from.currency),
        direction: 'credit',
        amountMinor: from.amountMinor,
        currency: from.currency,
      },
      {
        account: positionAccountCode(to.currency),
        direction: 'debit',
        amountMinor: amounts.toAmountMinor,
        currency: to.currency,
      },
      { account: to.account, direction: 'credit', amountMinor: amounts.toAmountMinor, currency: to.currency },
    ],
    releases: [],
    event: 'transaction.posted',
  };
}
