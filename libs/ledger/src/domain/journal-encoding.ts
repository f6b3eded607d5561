import { isUuid } from '@ledger/ids';
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

const ENTRY_BYTES = 2 + 16 + 1 + 1 + 8 + 3;

/** Writes the UUID's 16 bytes at `offset`; returns the offset after them. */
function writeUuid(target: Buffer, offset: number, uuid: string): number {
  if (!isUuid(uuid)) throw new RangeError(`not a UUID: ${uuid}`);
  const hex = uuid.replace(/-/g, '');
  return offset + target.write(hex, offset, 16, 'hex');
}

function sizeOf(record: JournalRecord): number {
  return (
    2 +
    16 +
    16 +
    1 +
    8 +
    8 +
    1 +
    (record.holdId ? 16 : 0) +
    (record.reversesId ? 16 : 0) +
    (record.expiresAt ? 8 : 0) +
    32 +
    2 +
    record.entries.length * ENTRY_BYTES
  );
}

export function encodeJournalRecord(record: JournalRecord): Buffer {
  if (record.descriptionDigest.length !== 32) throw new RangeError('description digest must be 32 bytes');
  // One buffer of the exact size, written field by field: this runs for every posting, under its locks.
  const bytes = Buffer.alloc(sizeOf(record));
  let at = bytes.writeUInt16BE(JOURNAL_ENCODING_VERSION, 0);
  at = writeUuid(bytes, at, record.tenantId);
  at = writeUuid(bytes, at, record.transactionId);
  at = bytes.writeUInt8(STATUS_CODES[record.status], at);
  at = bytes.writeBigInt64BE(BigInt(record.effectiveAt.getTime()), at);
  at = bytes.writeBigInt64BE(BigInt(record.createdAt.getTime()), at);
  at = bytes.writeUInt8((record.holdId ? 1 : 0) | (record.reversesId ? 2 : 0) | (record.expiresAt ? 4 : 0), at);
  if (record.holdId) at = writeUuid(bytes, at, record.holdId);
  if (record.reversesId) at = writeUuid(bytes, at, record.reversesId);
  if (record.expiresAt) at = bytes.writeBigInt64BE(BigInt(record.expiresAt.getTime()), at);
  at += record.descriptionDigest.copy(bytes, at);
  at = bytes.writeUInt16BE(record.entries.length, at);
  for (const entry of [...record.entries].sort((left, right) => left.leg - right.leg)) {
    if (!/^[A-Z]{3}$/.test(entry.currency)) throw new RangeError(`not a currency code: ${entry.currency}`);
    at = bytes.writeUInt16BE(entry.leg, at);
    at = writeUuid(bytes, at, entry.accountId);
    at = bytes.writeUInt8(entry.direction === 'debit' ? 0 : 1, at);
    at = bytes.writeUInt8(entry.pending ? 1 : 0, at);
    at = bytes.writeBigInt64BE(entry.amountMinor, at);
    at += bytes.write(entry.currency, at, 3, 'ascii');
  }
  return bytes;
}

/** hash(n) = SHA-256(hash(n-1) || encoding(n)), defined in @ledger/ids for the proof verifier too. */
export { chainHash } from '@ledger/ids';
