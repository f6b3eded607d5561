import { createHash } from 'node:crypto';
import { CURRENCY_PATTERN } from './account-leaf';
import { EncodingRangeError, FixedWidthWriter } from './fixed-width';
import { ACCOUNTS_PER_PROOF_MAX, CURRENCIES_MAX, STRIPES_MAX } from './limits';
import { type Sums, writeSums } from './sums';

export const CHECKPOINT_ENCODING_VERSION = 1;
const CHECKPOINT_MAGIC = Buffer.from('LDGRCKPT', 'ascii');
const JOURNAL_HEAD_MAGIC = Buffer.from('LDGRHEAD', 'ascii');

/** One hash chain's head: the journal position of a checkpoint is all of them. */
export interface StripeHead {
  stripe: number;
  seq: bigint;
  hash: Buffer;
}

export interface CurrencyRoot {
  currency: string;
  accounts: number;
  root: Buffer;
  sums: Sums;
}

/** What the signature covers: the tenant's books at one journal position. */
export interface Checkpoint {
  tenantId: string;
  asOf: Date;
  issuedAt: Date;
  keyId: Buffer;
  stripes: readonly StripeHead[];
  currencies: readonly CurrencyRoot[];
}

function writeStripes(writer: FixedWidthWriter, stripes: readonly StripeHead[]): FixedWidthWriter {
  if (stripes.length < 1 || stripes.length > STRIPES_MAX)
    throw new EncodingRangeError(`stripes: ${stripes.length} is outside 1..${STRIPES_MAX}`);
  writer.uint('stripe count', stripes.length, 2);
  stripes.forEach((head, index) => {
    if (head.stripe !== index) throw new EncodingRangeError(`stripes: stripe ${head.stripe} at position ${index}`);
    writer
      .uint('stripe', head.stripe, 2)
      .u63(`stripe ${index} seq`, head.seq)
      .bytes(`stripe ${index} hash`, head.hash, 32);
  });
  return writer;
}

/** A digest of all stripe heads: one value to quote for "the journal at this position". */
export function journalHeadDigest(stripes: readonly StripeHead[]): Buffer {
  const writer = new FixedWidthWriter().bytes('magic', JOURNAL_HEAD_MAGIC, 8);
  return createHash('sha256').update(writeStripes(writer, stripes).toBuffer()).digest();
}

/**
 * Checkpoint encoding, version 1: the bytes the Ed25519 signature covers.
 *   8 "LDGRCKPT" | u16 version | 16 tenant id | i64 asOf ms | i64 issuedAt ms | 32 key id
 *   | u16 stripe count, per stripe (in stripe order): u16 stripe | u63 seq | 32 head hash
 *   | u16 currency count, per currency (ascending code): 3 code | u32 accounts | 32 root | 4 x u63 sums
 */
export function encodeCheckpoint(checkpoint: Checkpoint): Buffer {
  const writer = new FixedWidthWriter()
    .bytes('magic', CHECKPOINT_MAGIC, 8)
    .uint('version', CHECKPOINT_ENCODING_VERSION, 2)
    .uuid('tenant id', checkpoint.tenantId)
    .time('asOf', checkpoint.asOf)
    .time('issuedAt', checkpoint.issuedAt)
    .bytes('key id', checkpoint.keyId, 32);
  writeStripes(writer, checkpoint.stripes);
  const currencies = checkpoint.currencies;
  if (currencies.length > CURRENCIES_MAX) throw new EncodingRangeError(`currencies: more than ${CURRENCIES_MAX}`);
  writer.uint('currency count', currencies.length, 2);
  currencies.forEach((root, index) => {
    if (index > 0 && currencies[index - 1]!.currency >= root.currency)
      throw new EncodingRangeError('currencies: not in strictly ascending order');
    if (root.accounts < 1 || root.accounts > ACCOUNTS_PER_PROOF_MAX)
      throw new EncodingRangeError(
        `${root.currency} accounts: ${root.accounts} is outside 1..${ACCOUNTS_PER_PROOF_MAX}`,
      );
    writer
      .ascii('currency', root.currency, 3, CURRENCY_PATTERN)
      .uint(`${root.currency} accounts`, root.accounts, 4)
      .bytes(`${root.currency} root`, root.root, 32);
    writeSums(writer, `${root.currency} sums`, root.sums);
  });
  return writer.toBuffer();
}

/** A proof's id: the SHA-256 of its signed encoding. */
export function checkpointId(encoding: Buffer): string {
  return createHash('sha256').update(encoding).digest('hex');
}
