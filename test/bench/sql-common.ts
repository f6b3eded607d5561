import { createHash } from 'node:crypto';
import type pg from 'pg';

// What the plain SQL baseline's single-transfer and batch paths share: the account lock, running
// account state, and the journal link that the schema demands of every transaction at commit (LG003).

const LOCK_ACCOUNTS = `
SELECT id, normal_balance, allow_negative, posted_debits, posted_credits, pending_debits, pending_credits, version
  FROM accounts
 WHERE tenant_id = $1 AND id = ANY($2::uuid[])
 ORDER BY id
   FOR UPDATE`;

interface LockedRow {
  id: string;
  normal_balance: 'debit' | 'credit';
  allow_negative: boolean;
  posted_debits: string;
  posted_credits: string;
  pending_debits: string;
  pending_credits: string;
  version: string;
}

export type Direction = 'debit' | 'credit';

/** One locked account as the transfers of a transaction move it, leg by leg. */
export class AccountState {
  private debitsMinor: bigint;
  private creditsMinor: bigint;
  private version: bigint;
  private readonly creditNormal: boolean;
  private readonly allowNegative: boolean;
  private readonly pendingOutMinor: bigint;

  constructor(row: LockedRow) {
    this.debitsMinor = BigInt(row.posted_debits);
    this.creditsMinor = BigInt(row.posted_credits);
    this.version = BigInt(row.version);
    this.creditNormal = row.normal_balance === 'credit';
    this.allowNegative = row.allow_negative;
    this.pendingOutMinor = BigInt(this.creditNormal ? row.pending_debits : row.pending_credits);
  }

  private postedAfter(direction: Direction, amountMinor: bigint): bigint {
    const debits = this.debitsMinor + (direction === 'debit' ? amountMinor : 0n);
    const credits = this.creditsMinor + (direction === 'credit' ? amountMinor : 0n);
    return this.creditNormal ? credits - debits : debits - credits;
  }

  /** The schema's accounts_available_non_negative CHECK, checked early so a refusal costs no write. */
  allows(direction: Direction, amountMinor: bigint): boolean {
    return this.allowNegative || this.postedAfter(direction, amountMinor) - this.pendingOutMinor >= 0n;
  }

  /** Moves one leg; answers the entry's account_version and posted_balance_after. */
  apply(direction: Direction, amountMinor: bigint): { versionAfter: bigint; postedBalanceAfter: bigint } {
    const postedBalanceAfter = this.postedAfter(direction, amountMinor);
    if (direction === 'debit') this.debitsMinor += amountMinor;
    else this.creditsMinor += amountMinor;
    this.version += 1n;
    return { versionAfter: this.version, postedBalanceAfter };
  }
}

export async function lockAccounts(
  client: pg.Client,
  tenantId: string,
  accountIds: readonly string[],
): Promise<Map<string, AccountState>> {
  const locked = await client.query<LockedRow>(LOCK_ACCOUNTS, [tenantId, accountIds]);
  return new Map(locked.rows.map((row) => [row.id, new AccountState(row)]));
}

/** Each tenant has this many journal stripes (created by the migration's tenant trigger). */
const JOURNAL_STRIPES = 16;
/**
 * The API's links are encoding version 1 (its canonical record encoding); the baseline hashes less
 * (see chainLinks), so it marks its links as version 0, which no verifier would mistake for the API's.
 */
const BASELINE_ENCODING_VERSION = 0;

// Like the API: a stripe no other transaction holds, starting from a random one; if all are held
// (more clients than stripes), wait for one. Taken after the account locks, and the holder waits for
// nothing else afterwards, so waiting for a stripe cannot deadlock.
const TAKE_FREE_STRIPE = `
SELECT stripe, seq, hash FROM journal_heads
 WHERE tenant_id = $1 ORDER BY (stripe + $2) % ${JOURNAL_STRIPES} LIMIT 1
   FOR UPDATE SKIP LOCKED`;
const WAIT_FOR_STRIPE = `SELECT stripe, seq, hash FROM journal_heads WHERE tenant_id = $1 AND stripe = $2 FOR UPDATE`;

export interface JournalHead {
  stripe: number;
  seq: bigint;
  hash: Buffer;
}

export async function takeJournalHead(client: pg.Client, tenantId: string): Promise<JournalHead> {
  const start = Math.floor(Math.random() * JOURNAL_STRIPES);
  type Row = { stripe: number; seq: string; hash: Buffer };
  const free = await client.query<Row>(TAKE_FREE_STRIPE, [tenantId, start]);
  const row = free.rows[0] ?? (await client.query<Row>(WAIT_FOR_STRIPE, [tenantId, start])).rows[0];
  if (row === undefined) throw new Error(`tenant ${tenantId} has no journal stripes`);
  return { stripe: row.stripe, seq: BigInt(row.seq), hash: row.hash };
}

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/**
 * hash(n) = sha256(hash(n-1) || transaction id || content hash), where the content hash covers the
 * accounts and amount. A real chain, one SHA-256 per transaction like the API's, over fewer bytes
 * than the API's full record encoding.
 */
export function chainLinks(
  head: JournalHead,
  records: readonly { transactionId: string; contentHash: Buffer }[],
): { params: unknown[]; next: JournalHead } {
  let previousHash = head.hash;
  const seqs: string[] = [];
  const previousHashes: Buffer[] = [];
  const hashes: Buffer[] = [];
  for (const [offset, record] of records.entries()) {
    const hash = createHash('sha256')
      .update(previousHash)
      .update(uuidBytes(record.transactionId))
      .update(record.contentHash)
      .digest();
    seqs.push((head.seq + BigInt(offset + 1)).toString());
    previousHashes.push(previousHash);
    hashes.push(hash);
    previousHash = hash;
  }
  const next = { stripe: head.stripe, seq: head.seq + BigInt(records.length), hash: previousHash };
  const params = [
    head.stripe,
    seqs,
    records.map((record) => record.transactionId),
    previousHashes,
    hashes,
    next.seq.toString(),
    next.hash,
  ];
  return { params, next };
}

/**
 * CTEs that link transactions into the journal and move the stripe's head, for a statement whose $1
 * is the tenant id and whose parameters from $first on are chainLinks(...).params (7 of them).
 */
export function journalCtes(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `linked AS (
  INSERT INTO journal_links (tenant_id, stripe, seq, transaction_id, encoding_version, previous_hash, hash)
  SELECT $1, ${p(0)}::int2, l.seq, l.transaction_id, ${BASELINE_ENCODING_VERSION}, l.previous_hash, l.hash
    FROM unnest(${p(1)}::int8[], ${p(2)}::uuid[], ${p(3)}::bytea[], ${p(4)}::bytea[])
         AS l(seq, transaction_id, previous_hash, hash)
), moved_head AS (
  UPDATE journal_heads SET seq = ${p(5)}::int8, hash = ${p(6)}::bytea WHERE tenant_id = $1 AND stripe = ${p(0)}::int2
)`;
}

/** A failure label for a transaction that threw: its SQLSTATE when PostgreSQL refused it. */
export function sqlFailureLabel(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string'
    ? `SQLSTATE ${code}`
    : `exception: ${error instanceof Error ? error.message : String(error)}`;
}
