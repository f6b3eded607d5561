import type { Quote } from './conversion.repository';

export interface QuoteView {
  id: string;
  from: { currency: string };
  to: { currency: string };
  rate: string;
  actor: string;
  createdAt: string;
  expiresAt: string;
  /** The conversion that used the quote (a quote is used at most once), or null. */
  usedByTransactionId: string | null;
  usedAt: string | null;
}

export function toQuoteView(quote: Quote): QuoteView {
  return {
    id: quote.id,
    from: { currency: quote.fromCurrency },
    to: { currency: quote.toCurrency },
    rate: quote.rate,
    actor: quote.actor,
    createdAt: quote.createdAt.toISOString(),
    expiresAt: quote.expiresAt.toISOString(),
    usedByTransactionId: quote.usedByTransactionId,
    usedAt: quote.usedAt?.toISOString() ?? null,
  };
}
