import { createHash } from 'node:crypto';
import { ownText } from './own-text';
import type { LineReferences } from './statement-items';

/**
 * The externalId rule, the same for every format, so that a line imported twice (overlapping statements, the
 * same file uploaded again) is recognised:
 *
 * 1. When the format has the bank's or gateway's own unique reference for the line, the id is that reference,
 *    prefixed by its kind: `acctsvcrref:<camt AcctSvcrRef>`, `ntryref:<camt NtryRef>` (when there is no
 *    AcctSvcrRef), `id:<csv id column>`. A camt batch entry split into one line per TxDtls uses the TxDtls's
 *    own AcctSvcrRef when it has one that differs from the entry's, else `<entry id>/<k>` (k = 1-based TxDtls
 *    position). These are trusted as unique; a duplicate is left for the storage's unique key to report.
 *    BAI2: `bankref:<bank reference number of the 16>`. Banks give a wire and its fee one bank reference, so
 *    that one is not trusted as unique within an account's report: its second and later occurrences there
 *    are `bankref:<reference>:<n>` (n = 2, 3, ...; see ReferenceOccurrences).
 * 2. Otherwise (MT940, bank CSV, camt without references) the id is `sha256:<first 32 hex digits>:<n>`, the
 *    hash of the canonical JSON of [account, booking date, value date, amount in minor units, currency,
 *    references sorted by name, description], and n the occurrence (1, 2, ...) of that same hash within the
 *    statement: two identical lines on one statement are two real movements and keep two ids, while the same
 *    line seen again in an overlapping statement gets the same id.
 */
export const IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX = 1_000_000;

export interface LineContent {
  bookedOn: string;
  valueOn: string | null;
  amountMinor: bigint;
  currency: string;
  references: LineReferences;
  description: string;
}

export type ReferenceKind = 'acctsvcrref' | 'ntryref' | 'id' | 'bankref';

export function referenceExternalId(kind: ReferenceKind, reference: string): string {
  return `${kind}:${reference}`;
}

/** Occurrence counting for content-hash ids; one per statement. Memory grows with its distinct hashes only. */
export class StatementLineIdentities {
  private readonly occurrencesByHash = new Map<string, number>();

  constructor(private readonly accountId: string | null) {}

  /** The id, or an error message when the statement has too many lines without a bank reference. */
  fromContent(content: LineContent): { externalId: string } | { error: string } {
    const references = Object.entries(content.references)
      .filter(([, value]) => value !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    const canonical = JSON.stringify([
      this.accountId,
      content.bookedOn,
      content.valueOn,
      content.amountMinor.toString(),
      content.currency,
      references,
      content.description,
    ]);
    const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 32);
    const seen = this.occurrencesByHash.get(hash);
    if (seen === undefined && this.occurrencesByHash.size >= IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX) {
      return {
        error:
          `the statement has more than ${IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX} lines without a bank reference; ` +
          'split the file',
      };
    }
    const occurrence = (seen ?? 0) + 1;
    this.occurrencesByHash.set(hash, occurrence);
    return { externalId: `sha256:${hash}:${occurrence}` };
  }
}

/**
 * Ids from a reference that may repeat within one statement (a BAI2 bank reference): the first occurrence is
 * `<kind>:<reference>`, the n-th `<kind>:<reference>:<n>`. One per statement; it holds at most
 * IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX distinct references.
 */
export class ReferenceOccurrences {
  private readonly occurrences = new Map<string, number>();

  constructor(private readonly kind: ReferenceKind) {}

  next(reference: string): { externalId: string } | { error: string } {
    const seen = this.occurrences.get(reference);
    if (seen === undefined && this.occurrences.size >= IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX) {
      return {
        error: `the statement has more than ${IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX} references; split the file`,
      };
    }
    const occurrence = (seen ?? 0) + 1;
    // An own copy: the key outlives the chunk of text the reference was cut from.
    this.occurrences.set(seen === undefined ? ownText(reference) : reference, occurrence);
    const externalId = referenceExternalId(this.kind, reference);
    return { externalId: occurrence === 1 ? externalId : `${externalId}:${occurrence}` };
  }
}
