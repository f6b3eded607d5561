import { chainHash } from '@ledger/ids';

interface HeadDocument {
  stripe: number;
  seq: string;
  hash: string;
}

interface SegmentStripe {
  stripe: number;
  links: readonly { seq: string; encoding: string }[];
}

/**
 * Whether the later journal extends the earlier one: on every stripe, the links of the segment
 * continue the earlier head's chain one sequence number at a time (hash(n) = SHA-256(hash(n-1) ||
 * encoding(n))) and end exactly at the later head. Returns the first problem, or undefined.
 * A dropped, altered, re-ordered or inserted link breaks the chain on its stripe.
 */
export function journalSegmentReaches(
  earlier: readonly HeadDocument[],
  later: readonly HeadDocument[],
  segment: readonly SegmentStripe[],
): string | undefined {
  if (earlier.length !== later.length)
    return `the earlier journal has ${earlier.length} stripes, the later ${later.length}`;
  const byStripe = new Map(segment.map((stripe) => [stripe.stripe, stripe.links]));
  if (byStripe.size !== segment.length) return 'the segment names a stripe twice';
  if (segment.some((stripe) => stripe.stripe >= later.length))
    return 'the segment names a stripe the checkpoint does not have';
  for (const head of later) {
    const start = earlier[head.stripe];
    if (start === undefined || start.stripe !== head.stripe) return `stripe ${head.stripe} is not in the earlier proof`;
    let seq = BigInt(start.seq);
    let hash: Buffer = Buffer.from(start.hash, 'hex');
    for (const link of byStripe.get(head.stripe) ?? []) {
      if (BigInt(link.seq) !== seq + 1n)
        return (
          `stripe ${head.stripe}: the segment jumps from seq ${seq} to ${link.seq} ` +
          '(a link is missing or out of order)'
        );
      hash = chainHash(hash, Buffer.from(link.encoding, 'hex'));
      seq += 1n;
    }
    if (seq !== BigInt(head.seq))
      return `stripe ${head.stripe}: the segment ends at seq ${seq}, the later head is at ${head.seq}`;
    if (hash.toString('hex') !== head.hash)
      return `stripe ${head.stripe}: the chain from the earlier head does not reach the later head hash`;
  }
  return undefined;
}
