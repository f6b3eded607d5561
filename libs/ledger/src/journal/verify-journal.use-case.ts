import { Injectable } from '@nestjs/common';
import { JOURNAL_ENCODING_VERSION, JOURNAL_GENESIS_HASH, chainHash } from '../domain/journal-encoding';
import { JournalRepository, type StoredLink, encodeStoredLink } from './journal.repository';

export const JOURNAL_PAGE_SIZE = 2_000;

export interface BrokenLink {
  stripe: number | null;
  seq: string | null;
  transactionId: string | null;
  reason: string;
}

export interface JournalVerification {
  tenantId: string;
  ok: boolean;
  links: number;
  stripes: { stripe: number; seq: string; hash: string }[];
  firstBroken: BrokenLink | null;
}

function check(tenantId: string, link: StoredLink, expectedSeq: bigint, previousHash: Buffer): string | undefined {
  if (link.seq !== expectedSeq) return `sequence jumps from ${expectedSeq - 1n} to ${link.seq}`;
  if (link.encodingVersion !== JOURNAL_ENCODING_VERSION) return `unknown encoding version ${link.encodingVersion}`;
  if (!link.previousHash.equals(previousHash)) return 'previous hash does not match the link before it';
  if (!chainHash(previousHash, encodeStoredLink(tenantId, link)).equals(link.hash))
    return 'stored content does not match its hash (altered after posting)';
  return undefined;
}

/**
 * Re-computes every stripe of a tenant's journal from the stored rows and names the first broken
 * link: altered content, a missing or re-ordered link, a head that does not match, a transaction
 * outside the journal. Reads in pages, so memory stays flat however long the journal is.
 */
@Injectable()
export class VerifyJournalUseCase {
  constructor(private readonly journal: JournalRepository) {}

  async execute(tenantId: string): Promise<JournalVerification> {
    const heads = await this.journal.heads(tenantId);
    const result: JournalVerification = { tenantId, ok: true, links: 0, stripes: [], firstBroken: null };
    for (const head of heads) {
      const broken = await this.verifyStripe(tenantId, head, result);
      if (broken) return { ...result, ok: false, firstBroken: broken };
    }
    const outside = await this.journal.firstUnjournaled(tenantId);
    if (outside)
      return {
        ...result,
        ok: false,
        firstBroken: { stripe: null, seq: null, transactionId: outside, reason: 'transaction is not in the journal' },
      };
    return result;
  }

  private async verifyStripe(
    tenantId: string,
    head: { stripe: number; seq: bigint; hash: Buffer },
    result: JournalVerification,
  ): Promise<BrokenLink | undefined> {
    let previousHash: Buffer = JOURNAL_GENESIS_HASH;
    let seq = 0n;
    let next: Promise<StoredLink[]> | undefined = this.journal.page(
      tenantId,
      head.stripe,
      seq,
      head.seq,
      JOURNAL_PAGE_SIZE,
    );
    while (next) {
      const page: StoredLink[] = await next;
      // The next page is read while this one is hashed.
      next =
        page.length === JOURNAL_PAGE_SIZE
          ? this.journal.page(tenantId, head.stripe, page.at(-1)!.seq, head.seq, JOURNAL_PAGE_SIZE)
          : undefined;
      for (const link of page) {
        const reason = check(tenantId, link, seq + 1n, previousHash);
        if (reason) {
          await next;
          return { stripe: head.stripe, seq: link.seq.toString(), transactionId: link.transactionId, reason };
        }
        previousHash = link.hash;
        seq = link.seq;
        result.links++;
      }
    }
    if (seq !== head.seq || !previousHash.equals(head.hash)) {
      return {
        stripe: head.stripe,
        seq: head.seq.toString(),
        transactionId: null,
        reason: `head (seq ${head.seq}) does not match the last link (seq ${seq})`,
      };
    }
    result.stripes.push({ stripe: head.stripe, seq: seq.toString(), hash: previousHash.toString('hex') });
    return undefined;
  }
}
