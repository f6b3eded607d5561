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
 * 2. MT940 and MT942 lines whose `:61:` has a bank reference (after `//`): `mtref:<first 32 hex digits>:<n>`,
 *    the hash of the canonical JSON of [account, bank reference, value date, amount in minor units,
 *    currency], n the occurrence as in rule 3. Banks reuse a reference for the two sides of a transfer or a
 *    return (the samples show one reference on a credit and a debit), so the reference alone is not the id;
 *    and the narrative (:86:) and entry date are left out, so that an MT942 interim report and the later
 *    MT940 statement that word them differently still give the same movement the same id.
 * 3. Otherwise (MT940 without bank reference, bank CSV, camt without references) the id is `sha256:<first 32 hex
 *    digits>:<n>`, the hash of the canonical JSON of [account, booking date, value date, amount in minor units,
 *    currency, references sorted by name, description], and n the occurrence (1, 2, ...) of that same hash
 *    within the statement: two identical lines on one statement are two real movements and keep two ids, while
 *    the same line seen again in an overlapping statement gets the same id.
 *
 * One prefix, one meaning: each prefix belongs to one format family and one shape. `bankref:` is always BAI2's
 * bank reference as the bank wrote it; `mtref:` is always the SWIFT MT (MT940/MT942) reference hash. A new
 * format that has a bank reference gets a prefix of its own rather than reusing one with another shape.
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
    return this.occurrence('sha256', [
      this.accountId,
      content.bookedOn,
      content.valueOn,
      content.amountMinor.toString(),
      content.currency,
      references,
      content.description,
    ]);
  }

  /** Rule 2 (MT940/MT942): the bank's reference with value date and amount; the narrative is left out. */
  fromReference(
    reference: string,
    content: Omit<LineContent, 'references' | 'description' | 'bookedOn'>,
  ): { externalId: string } | { error: string } {
    return this.occurrence('mtref', [
      this.accountId,
      reference,
      content.valueOn,
      content.amountMinor.toString(),
      content.currency,
    ]);
  }

  private occurrence(prefix: 'sha256' | 'mtref', parts: unknown[]): { externalId: string } | { error: string } {
    const canonical = JSON.stringify(parts);
    // The prefix is part of the key: a content hash and a reference hash never count as the same line.
    const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 32);
    const key = `${prefix}:${hash}`;
    const seen = this.occurrencesByHash.get(key);
    if (seen === undefined && this.occurrencesByHash.size >= IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX) {
      return {
        error:
          `the statement has more than ${IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX} lines without a bank reference; ` +
          'split the file',
      };
    }
    const occurrence = (seen ?? 0) + 1;
    this.occurrencesByHash.set(key, occurrence);
    return { externalId: `${key}:${occurrence}` };
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
