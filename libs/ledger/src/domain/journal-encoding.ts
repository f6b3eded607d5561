import { createHash } from 'node:crypto';
import type { Side } from './balances';

/**
 * The journal's canonical byte encoding of one record, version 1. Fixed-width integers, length-
 * prefixed text, fields in a fixed order: the same record always gives the same bytes, and a verifier
 * in any language can rebuild them from the stored rows.
 *
 *   u16 version | 16 tenant id | 16 transaction id | u8 status | i64 effective ms | i64 created ms
 *   | u8 flags (1 hold, 2 reverses, 4 expires) [16 hold id] [16 reverses id] [i64 expires ms]
 *   | 32 sha256(canonical JSON of {externalRef, description, metadata})
 *   | u16 entry count, per entry: u16 leg | 16 account id | u8 direction | u8 pending | i64 amount | 3 currency
 */
export const JOURNAL_ENCODING_VERSION = 1;
export const JOURNAL_GENESIS_HASH = Buffer.alloc(32);

const STATUS_CODES = { posted: 1, pending: 2, voided: 3, expired: 4 } as const;
export type JournalStatus = keyof typeof STATUS_CODES;

export interface JournalEntry {
  leg: number;
  accountId: string;
  direction: Side;
  pending: boolean;
  amountMinor: bigint;
  currency: string;
}

export interface JournalRecord {
  tenantId: string;
  transactionId: string;
  status: JournalStatus;
  effectiveAt: Date;
  createdAt: Date;
  holdId: string | null;
  reversesId: string | null;
  expiresAt: Date | null;
  /** sha256 of the canonical JSON of the descriptive fields. */
  descriptionDigest: Buffer;
  entries: readonly JournalEntry[];
}

function uuidBytes(uuid: string): Buffer {
  const bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  if (bytes.length !== 16) throw new RangeError(`not a UUID: ${uuid}`);
  return bytes;
}

function int64(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
}

export function encodeJournalRecord(record: JournalRecord): Buffer {
  const flags = (record.holdId ? 1 : 0) | (record.reversesId ? 2 : 0) | (record.expiresAt ? 4 : 0);
  const header = Buffer.alloc(2);
  header.writeUInt16BE(JOURNAL_ENCODING_VERSION);
  const parts: Buffer[] = [
    header,
    uuidBytes(record.tenantId),
    uuidBytes(record.transactionId),
    Buffer.from([STATUS_CODES[record.status]]),
    int64(BigInt(record.effectiveAt.getTime())),
    int64(BigInt(record.createdAt.getTime())),
    Buffer.from([flags]),
  ];
  if (record.holdId) parts.push(uuidBytes(record.holdId));
  if (record.reversesId) parts.push(uuidBytes(record.reversesId));
  if (record.expiresAt) parts.push(int64(BigInt(record.expiresAt.getTime())));
  if (record.descriptionDigest.length !== 32) throw new RangeError('description digest must be 32 bytes');
  parts.push(record.descriptionDigest);
  const count = Buffer.alloc(2);
  count.writeUInt16BE(record.entries.length);
  parts.push(count);
  for (const entry of [...record.entries].sort((left, right) => left.leg - right.leg)) {
    const leg = Buffer.alloc(2);
    leg.writeUInt16BE(entry.leg);
    if (!/^[A-Z]{3}$/.test(entry.currency)) throw new RangeError(`not a currency code: ${entry.currency}`);
    parts.push(
      leg,
      uuidBytes(entry.accountId),
      Buffer.from([entry.direction === 'debit' ? 0 : 1, entry.pending ? 1 : 0]),
      int64(entry.amountMinor),
      Buffer.from(entry.currency, 'ascii'),
    );
  }
  return Buffer.concat(parts);
}

/** hash(n) = SHA-256(hash(n-1) || encoding(n)). */
export function chainHash(previousHash: Buffer, encoding: Buffer): Buffer {
  return createHash('sha256').update(previousHash).update(encoding).digest();
}
