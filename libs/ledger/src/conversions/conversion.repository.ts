import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { POSITION_ACCOUNT_PREFIX, type RoundingMode } from '../domain/conversion';
import {
  CONVERSION_ACCOUNTS,
  GET_QUOTE,
  INSERT_CONVERSION,
  INSERT_QUOTE,
  LOCK_QUOTE,
  PAIR_TOTALS,
  POSITION_ACCOUNTS,
  type QuoteRow,
  USE_QUOTE,
} from './conversions.sql';

export interface Quote {
  id: string;
  fromCurrency: string;
  toCurrency: string;
  rate: string;
  actor: string;
  createdAt: Date;
  expiresAt: Date;
  usedByTransactionId: string | null;
  usedAt: Date | null;
}

export interface ConversionRecord {
  transactionId: string;
  fromCurrency: string;
  toCurrency: string;
  fromAmountMinor: bigint;
  toAmountMinor: bigint;
  rate: string;
  rounding: RoundingMode;
  quoteId: string | null;
}

export interface PairTotals {
  fromCurrency: string;
  toCurrency: string;
  conversions: number;
  fromAmountMinor: bigint;
  toAmountMinor: bigint;
}

export interface PositionAccount {
  id: string;
  code: string;
  currency: string;
  postedDebits: bigint;
  postedCredits: bigint;
}

/** An account as a conversion needs it: which it is and what it holds. */
export interface NamedAccount {
  id: string;
  code: string;
  currency: string;
}

function quoteOf(row: QuoteRow): Quote {
  return {
    id: row.id,
    fromCurrency: row.from_currency,
    toCurrency: row.to_currency,
    rate: row.rate,
    actor: row.actor,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedByTransactionId: row.used_by_transaction_id,
    usedAt: row.used_at,
  };
}

@Injectable()
export class ConversionRepository {
  constructor(private readonly db: Database) {}

  /** The accounts named by id or code (at most a handful), keyed by each name that found one. */
  async accountsByRef(tenantId: string, refs: readonly string[]): Promise<Map<string, NamedAccount>> {
    const ids = refs.filter((ref) => isUuid(ref)).map((ref) => ref.toLowerCase());
    const codes = refs.filter((ref) => !isUuid(ref));
    const rows = await this.db.query(CONVERSION_ACCOUNTS, { tenantId, ids, codes });
    const byRef = new Map<string, NamedAccount>();
    for (const ref of refs) {
      const row = rows.find((candidate) => (isUuid(ref) ? candidate.id === ref.toLowerCase() : candidate.code === ref));
      if (row !== undefined) byRef.set(ref, { id: row.id, code: row.code, currency: row.currency });
    }
    return byRef;
  }

  async insertQuote(tenantId: string, quote: Omit<Quote, 'usedByTransactionId' | 'usedAt'>): Promise<Quote> {
    const [row] = await this.db.query(INSERT_QUOTE, { tenantId, ...quote });
    return quoteOf(row!);
  }

  async findQuote(tenantId: string, id: string): Promise<Quote | undefined> {
    const [row] = await this.db.query(GET_QUOTE, { tenantId, id });
    return row === undefined ? undefined : quoteOf(row);
  }

  /** The quote, row-locked until the ambient transaction ends. */
  async lockQuote(tenantId: string, id: string): Promise<Quote | undefined> {
    const [row] = await this.db.query(LOCK_QUOTE, { tenantId, id });
    return row === undefined ? undefined : quoteOf(row);
  }

  /** False when the quote was used already (by then it is locked by the caller, so it cannot be). */
  async useQuote(tenantId: string, id: string, transactionId: string, usedAt: Date): Promise<boolean> {
    const rows = await this.db.query(USE_QUOTE, { tenantId, id, transactionId, usedAt });
    return rows.length === 1;
  }

  async insertConversion(tenantId: string, record: ConversionRecord): Promise<void> {
    await this.db.query(INSERT_CONVERSION, { tenantId, ...record });
  }

  async pairTotals(tenantId: string, limit: number): Promise<PairTotals[]> {
    const rows = await this.db.query(PAIR_TOTALS, { tenantId, limit });
    return rows.map((row) => ({
      fromCurrency: row.from_currency,
      toCurrency: row.to_currency,
      conversions: Number(row.conversions),
      fromAmountMinor: BigInt(row.from_total),
      toAmountMinor: BigInt(row.to_total),
    }));
  }

  async positionAccounts(tenantId: string, limit: number): Promise<PositionAccount[]> {
    const rows = await this.db.query(POSITION_ACCOUNTS, { tenantId, codePrefix: POSITION_ACCOUNT_PREFIX, limit });
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      currency: row.currency,
      postedDebits: BigInt(row.posted_debits),
      postedCredits: BigInt(row.posted_credits),
    }));
  }
}
