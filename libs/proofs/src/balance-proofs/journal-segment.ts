import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { type JournalHead, JournalRepository, encodeStoredLink } from '@ledger/ledger';
import { CONSISTENCY_LINKS_MAX } from '../domain/limits';
import type { BalanceProofDocument, ConsistencyDocument } from '../domain/proof-document';

const SEGMENT_PAGE_SIZE = 500;

/**
 * The journal links between an earlier proof's stripe heads and later heads, with their encodings:
 * what a verifier needs to re-hash each stripe's chain from one head to the other.
 */
@Injectable()
export class JournalSegmentReader {
  constructor(private readonly journal: JournalRepository) {}

  async read(
    tenantId: string,
    previous: BalanceProofDocument,
    heads: readonly JournalHead[],
  ): Promise<ConsistencyDocument> {
    const links = heads.reduce(
      (total, head) => total + (head.seq - BigInt(previous.journal.stripes[head.stripe]?.seq ?? 0)),
      0n,
    );
    if (links > BigInt(CONSISTENCY_LINKS_MAX)) {
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `${links} journal links since proof ${previous.id}, more than ${CONSISTENCY_LINKS_MAX}: ` +
          'chain proofs taken more often',
      );
    }
    const stripes: ConsistencyDocument['stripes'] = [];
    for (const head of heads) {
      const from = BigInt(previous.journal.stripes[head.stripe]?.seq ?? 0);
      const segment: { seq: string; encoding: string }[] = [];
      for (let after = from; after < head.seq; ) {
        const page = await this.journal.page(tenantId, head.stripe, after, head.seq, SEGMENT_PAGE_SIZE);
        if (page.length === 0) break;
        for (const link of page)
          segment.push({ seq: link.seq.toString(), encoding: encodeStoredLink(tenantId, link).toString('hex') });
        after = page.at(-1)!.seq;
      }
      if (segment.length > 0) stripes.push({ stripe: head.stripe, links: segment });
    }
    return { previousId: previous.id, stripes };
  }
}
