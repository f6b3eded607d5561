import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { FIND_TRANSACTION, LIST_TRANSACTIONS, type TransactionViewRow } from './transaction-queries.sql';
import type { TransactionStatus, TransactionView } from './transaction.view';

export interface TransactionFilter {
  externalRef?: string;
  accountId?: string;
  from?: Date;
  to?: Date;
  /** Keyset position: only transactions older than this id. */
  beforeId?: string;
  /** Transactions whose metadata contains this JSON object. */
  metadata?: Record<string, unknown>;
  status?: TransactionStatus;
}

function toView(row: TransactionViewRow): TransactionView {
  return {
    id: row.id,
    status: row.status,
    externalRef: row.external_ref,
    description: row.description,
    metadata: row.metadata,
    effectiveAt: row.effective_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    holdId: row.hold_id,
    reversesId: row.reverses_id,
    actor: row.actor,
    reversedById: row.reversed_by_id,
    resolution: row.resolution,
    entries: row.entries,
    journal: {
      stripe: row.stripe ?? -1,
      seq: (row.seq ?? 0n).toString(),
      hash: row.hash ? Buffer.from(row.hash).toString('hex') : '',
    },
  };
}

@Injectable()
export class TransactionRepository {
  constructor(private readonly db: Database) {}

  /** Reads in the current transaction when there is one (a replayed externalRef), else autocommit. */
  async findById(tenantId: string, id: string): Promise<TransactionView | undefined> {
    const rows = await this.db.query(FIND_TRANSACTION, { tenantId, id });
    return rows[0] === undefined ? undefined : toView(rows[0]);
  }

  async list(tenantId: string, filter: TransactionFilter, take: number): Promise<TransactionView[]> {
    const rows = await this.db.query(LIST_TRANSACTIONS, {
      tenantId,
      externalRef: filter.externalRef ?? null,
      accountId: filter.accountId ?? null,
      from: filter.from ?? null,
      to: filter.to ?? null,
      beforeId: filter.beforeId ?? null,
      metadata: metadataFilter(filter.metadata),
      status: filter.status ?? null,
      limit: take,
    });
    return rows.map(toView);
  }
}

/** A filter of {} is contained in every transaction's metadata: no filter (the query's SQL needs one with a key). */
function metadataFilter(metadata: TransactionFilter['metadata']): string | null {
  return metadata === undefined || Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata);
}
