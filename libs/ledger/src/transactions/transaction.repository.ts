import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor, sqlErrorFields } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import type { Side } from '../domain/balances';
import { isUuid, type LockedAccount, type PostingPlan } from '../domain/posting-plan';
import { APPLY_POSTING, FIND_BY_EXTERNAL_REF, FIND_TRANSACTION, INSERT_TRANSACTION, LIST_TRANSACTIONS, LOCK_ACCOUNTS } from './posting.sql';
import type { EntryView, TransactionView } from './transaction.view';

interface TransactionRow {
  id: string;
  status: TransactionView['status'];
  external_ref: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  effective_at: Date;
  created_at: Date;
  entries: EntryView[];
}

export interface NewTransactionHeader {
  id: string;
  externalRef?: string;
  contentHash: Buffer;
  description?: string;
  metadata: Record<string, unknown>;
  effectiveAt?: Date;
}

interface LockedAccountRow {
  id: string;
  code: string;
  currency: string;
  normal_balance: Side;
  allow_negative: boolean;
  posted_debits: bigint;
  posted_credits: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  version: bigint;
}

/**
 * The database's own checks, met only if the plan computed above was wrong or raced: still the
 * client's error codes, never a 500.
 */
function translatePostingError(error: unknown): unknown {
  const sql = sqlErrorFields(error);
  if (sql?.code === '23514' && sql.constraint === 'accounts_available_non_negative') {
    return new DomainError('INSUFFICIENT_FUNDS', 'an account would go below zero', {});
  }
  if (sql?.code === 'LG001') return new DomainError('UNBALANCED', sql.message);
  if (sql?.code === '22003') return new DomainError('AMOUNT_OUT_OF_RANGE', 'a balance would exceed the largest amount the ledger holds');
  return error;
}

export interface TransactionFilter {
  externalRef?: string;
  accountId?: string;
  from?: Date;
  to?: Date;
  /** Keyset position: only transactions older than this id. */
  beforeId?: string;
}

function toView(row: TransactionRow): TransactionView {
  return {
    id: row.id,
    status: row.status,
    externalRef: row.external_ref,
    description: row.description,
    metadata: row.metadata,
    effectiveAt: row.effective_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    entries: row.entries,
  };
}

@Injectable()
export class TransactionRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when another transaction already holds this external reference. */
  async insertHeader(tx: SqlExecutor, tenantId: string, header: NewTransactionHeader) {
    const rows = await tx.query<{ effective_at: Date; created_at: Date }>(INSERT_TRANSACTION, [
      tenantId,
      header.id,
      header.externalRef ?? null,
      header.contentHash,
      header.description ?? null,
      JSON.stringify(header.metadata),
      header.effectiveAt ?? null,
    ]);
    const row = rows[0];
    return row === undefined ? undefined : { effectiveAt: row.effective_at, createdAt: row.created_at };
  }

  async findByExternalRef(tx: SqlExecutor, tenantId: string, externalRef: string) {
    const rows = await tx.query<{ id: string; content_hash: Buffer }>(FIND_BY_EXTERNAL_REF, [tenantId, externalRef]);
    const row = rows[0];
    return row === undefined ? undefined : { id: row.id, contentHash: Buffer.from(row.content_hash) };
  }

  async lockAccounts(tx: SqlExecutor, tenantId: string, refs: readonly string[]): Promise<LockedAccount[]> {
    const ids = refs.filter(isUuid).map((ref) => ref.toLowerCase());
    const codes = refs.filter((ref) => !isUuid(ref));
    const rows = await tx.query<LockedAccountRow>(LOCK_ACCOUNTS, [tenantId, ids, codes]);
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      currency: row.currency,
      normalBalance: row.normal_balance,
      allowNegative: row.allow_negative,
      postedDebits: row.posted_debits,
      postedCredits: row.posted_credits,
      pendingDebits: row.pending_debits,
      pendingCredits: row.pending_credits,
      version: row.version,
    }));
  }

  async applyPosting(tx: SqlExecutor, tenantId: string, transactionId: string, effectiveAt: Date, plan: PostingPlan) {
    const { deltas, entries } = plan;
    await tx.query(APPLY_POSTING, [
      tenantId,
      transactionId,
      deltas.map((delta) => delta.accountId),
      deltas.map((delta) => delta.debitMinor),
      deltas.map((delta) => delta.creditMinor),
      effectiveAt,
      entries.map((entry) => entry.leg),
      entries.map((entry) => entry.accountId),
      entries.map((entry) => entry.direction),
      entries.map((entry) => entry.amountMinor),
      entries.map((entry) => entry.currency),
      entries.map((entry) => entry.accountVersion),
      entries.map((entry) => entry.postedBalanceAfter),
    ]).catch((error: unknown) => {
      throw translatePostingError(error);
    });
  }

  /** Reads in the current transaction when there is one (a replayed externalRef), else autocommit. */
  async findById(tenantId: string, id: string): Promise<TransactionView | undefined> {
    const rows = await this.db.executor.query<TransactionRow>(FIND_TRANSACTION, [tenantId, id]);
    return rows[0] === undefined ? undefined : toView(rows[0]);
  }

  async list(tenantId: string, filter: TransactionFilter, take: number): Promise<TransactionView[]> {
    const rows = await this.db.executor.query<TransactionRow>(LIST_TRANSACTIONS, [
      tenantId,
      filter.externalRef ?? null,
      filter.accountId ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.beforeId ?? null,
      take,
    ]);
    return rows.map(toView);
  }
}
