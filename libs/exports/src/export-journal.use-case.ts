import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { type Books, JournalRepository, ReadBooksUseCase, type StoredLink } from '@ledger/ledger';
import { ACCOUNTS_PER_PROOF_MAX, journalHeadDigest } from '@ledger/proofs';
import { JOURNAL_CSV_HEADER, journalCsvRows } from './csv-format';
import type { ClosingBalance, ExportedTransaction } from './exported-transaction';
import { hledgerClosingAssertions, hledgerPreamble, hledgerTransaction } from './hledger-format';

export const JOURNAL_FORMATS = ['hledger', 'csv'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** Links read per query while streaming: memory holds one page and the accounts, never the journal. */
export const EXPORT_PAGE_SIZE = 500;

export interface JournalExport {
  contentType: string;
  fileName: string;
  chunks: AsyncIterable<string>;
}

/**
 * Streams a tenant's journal up to the current position: every stripe's links in chain order, read
 * page by page up to the heads read with the balances, so the file is exactly the books at one
 * position. The hledger file ends with every account's closing balance as a balance assertion.
 */
@Injectable()
export class ExportJournalUseCase {
  constructor(
    private readonly books: ReadBooksUseCase,
    private readonly journal: JournalRepository,
  ) {}

  async execute(command: { tenantId: string; format: JournalFormat; asOf?: Date }): Promise<JournalExport> {
    const books = await this.books.execute({
      tenantId: command.tenantId,
      asOf: command.asOf ?? new Date(),
      accountsMax: ACCOUNTS_PER_PROOF_MAX,
    });
    const chunks = command.format === 'hledger' ? this.hledger(books) : this.csv(books);
    const extension = command.format === 'hledger' ? 'journal' : 'csv';
    const contentType = command.format === 'hledger' ? 'text/plain; charset=utf-8' : 'text/csv; charset=utf-8';
    return {
      contentType,
      fileName: `journal-${command.tenantId}-${books.asOf.toISOString().slice(0, 10)}.${extension}`,
      chunks,
    };
  }

  private async *hledger(books: Books): AsyncGenerator<string> {
    const closing: ClosingBalance[] = [...books.accounts].sort((left, right) => (left.code < right.code ? -1 : 1));
    const head = journalHeadDigest(books.stripes).toString('hex');
    yield hledgerPreamble(
      `ledger journal of tenant ${books.tenantId} as of ${books.asOf.toISOString()}, journal head ${head}`,
      closing,
    );
    for await (const page of this.pages(books))
      yield page
        .map(hledgerTransaction)
        .filter((text) => text !== undefined)
        .join('');
    yield hledgerClosingAssertions(books.asOf, closing);
  }

  private async *csv(books: Books): AsyncGenerator<string> {
    yield JOURNAL_CSV_HEADER;
    for await (const page of this.pages(books)) yield page.map(journalCsvRows).join('');
  }

  /** Transactions effective at or before asOf, stripe by stripe in chain order, up to the heads. */
  private async *pages(books: Books): AsyncGenerator<ExportedTransaction[]> {
    const codes = new Map(books.accounts.map((account) => [account.id, account.code]));
    for (const head of books.stripes) {
      for (let after = 0n; after < head.seq; ) {
        const page = await this.journal.page(books.tenantId, head.stripe, after, head.seq, EXPORT_PAGE_SIZE);
        if (page.length === 0) break;
        after = page.at(-1)!.seq;
        yield page.filter((link) => link.effectiveAt <= books.asOf).map((link) => exported(link, head.stripe, codes));
      }
    }
  }
}

/** What a conversion's metadata says of it, if the transaction is one (see the ledger's conversion item). */
function conversionOf(metadata: Record<string, unknown>): ExportedTransaction['conversion'] {
  const recorded = metadata.conversion as
    | {
        from?: { currency?: unknown };
        to?: { currency?: unknown };
        rate?: unknown;
        rounding?: unknown;
        remainder?: unknown;
      }
    | undefined;
  if (typeof recorded !== 'object' || recorded === null) return null;
  const { from, to, rate, rounding, remainder } = recorded;
  const texts = [from?.currency, to?.currency, rate, rounding, remainder];
  if (!texts.every((text) => typeof text === 'string')) return null;
  const [fromCurrency, toCurrency] = texts as string[];
  return {
    fromCurrency: fromCurrency!,
    toCurrency: toCurrency!,
    rate: rate as string,
    rounding: rounding as string,
    remainder: remainder as string,
  };
}

function exported(link: StoredLink, stripe: number, codes: ReadonlyMap<string, string>): ExportedTransaction {
  return {
    id: link.transactionId,
    stripe,
    seq: link.seq,
    hash: link.hash.toString('hex'),
    status: link.status,
    effectiveAt: link.effectiveAt,
    externalRef: link.externalRef,
    description: link.description,
    holdId: link.holdId,
    reversesId: link.reversesId,
    conversion: conversionOf(link.metadata),
    entries: [...link.entries]
      .sort((left, right) => left.leg - right.leg)
      .map((entry) => {
        const account = codes.get(entry.accountId);
        assert.ok(account !== undefined, `entry of unknown account ${entry.accountId}`);
        return {
          leg: entry.leg,
          account,
          direction: entry.direction,
          pending: entry.pending,
          amountMinor: entry.amountMinor,
          currency: entry.currency,
        };
      }),
  };
}
