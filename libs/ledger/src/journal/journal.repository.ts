import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type JournalEntry, type JournalStatus, encodeJournalRecord } from '../domain/journal-encoding';
import { descriptionDigest } from '../transactions/posting-engine';
import { JOURNAL_HEADS, JOURNAL_PAGE, UNJOURNALED } from './journal.sql';

export interface StoredLink {
  seq: bigint;
  transactionId: string;
  encodingVersion: number;
  previousHash: Buffer;
  hash: Buffer;
  status: JournalStatus;
  externalRef: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  effectiveAt: Date;
  createdAt: Date;
  expiresAt: Date | null;
  holdId: string | null;
  reversesId: string | null;
  entries: JournalEntry[];
}

/** The link's journal encoding, rebuilt from the stored rows (what its hash covers). */
export function encodeStoredLink(tenantId: string, link: StoredLink): Buffer {
  // Field by field, not a spread: verification encodes every link of the journal.
  return encodeJournalRecord({
    tenantId,
    transactionId: link.transactionId,
    status: link.status,
    effectiveAt: link.effectiveAt,
    createdAt: link.createdAt,
    holdId: link.holdId,
    reversesId: link.reversesId,
    expiresAt: link.expiresAt,
    descriptionDigest: descriptionDigest(link),
    entries: link.entries,
  });
}

/** A bytea value as a Buffer, without a copy when the driver already gave one. */
function bytes(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

@Injectable()
export class JournalRepository {
  constructor(private readonly db: Database) {}

  async heads(tenantId: string): Promise<{ stripe: number; seq: bigint; hash: Buffer }[]> {
    const rows = await this.db.query(JOURNAL_HEADS, { tenantId });
    return rows.map((row) => ({ stripe: row.stripe, seq: row.seq, hash: Buffer.from(row.hash) }));
  }

  /** Links after `afterSeq` up to `lastSeq` (the head read at the start: postings go on meanwhile). */
  async page(
    tenantId: string,
    stripe: number,
    afterSeq: bigint,
    lastSeq: bigint,
    limit: number,
  ): Promise<StoredLink[]> {
    const rows = await this.db.query(JOURNAL_PAGE, { tenantId, stripe, afterSeq, lastSeq, limit });
    return rows.map((row) => ({
      seq: row.seq,
      transactionId: row.transaction_id,
      encodingVersion: row.encoding_version,
      previousHash: bytes(row.previous_hash),
      hash: bytes(row.hash),
      status: row.status,
      externalRef: row.external_ref,
      description: row.description,
      metadata: row.metadata,
      effectiveAt: row.effective_at,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      holdId: row.hold_id,
      reversesId: row.reverses_id,
      entries: row.entries.map((entry) => ({ ...entry, amountMinor: BigInt(entry.amount) })),
    }));
  }

  async firstUnjournaled(tenantId: string): Promise<string | undefined> {
    return (await this.db.query(UNJOURNALED, { tenantId }))[0]?.id;
  }
}
