import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import { newId, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { Side } from '../domain/balances';
import { DESCRIPTION_LENGTH_MAX } from '../domain/limits';
import { isUuid } from '@ledger/ids';
import { PostingEngine } from '../transactions/posting-engine';
import { LOCK_TRANSACTION } from '../transactions/posting.sql';
import type { TransactionStatus, TransactionView } from '../transactions/transaction.view';

// Two reversals of one transaction queue on its advisory lock (LOCK_TRANSACTION); this read, a fresh
// statement after the lock, then sees the first one's row.
const READ_ORIGINAL = `
SELECT t.id, t.status, t.reverses_id,
       (SELECT r.id FROM transactions r WHERE r.tenant_id = t.tenant_id AND r.reverses_id = t.id) AS reversed_by_id,
       (SELECT json_agg(json_build_object('account', e.account_id, 'direction', e.direction,
                                          'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
          FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS entries
  FROM transactions t WHERE t.tenant_id = $1 AND t.id = $2`;

interface OriginalRow {
  id: string;
  status: TransactionStatus;
  reverses_id: string | null;
  reversed_by_id: string | null;
  entries: { account: string; direction: Side; amount: string; currency: string }[] | null;
}

export interface ReverseTransactionCommand {
  tenantId: string;
  id: string;
  description?: string;
}

/** Posts the mirror image of a posted transaction; like any posting it must respect every account's limit. */
@Injectable()
export class ReverseTransactionUseCase {
  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
  ) {}

  async execute(command: ReverseTransactionCommand): Promise<TransactionView> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `transaction ${command.id} not found`);
    const id = command.id.toLowerCase();
    return this.db.transaction('read committed', async (tx) => {
      const original = await this.lockReversible(tx, command.tenantId, id);
      const now = new Date();
      const description = command.description ?? `Reversal of ${id}`.slice(0, DESCRIPTION_LENGTH_MAX);
      const [result] = await this.engine.write(tx, command.tenantId, [
        {
          id: newId(now.getTime()),
          status: 'posted',
          externalRef: null,
          contentHash: sha256(`reverse:${id}`),
          description,
          metadata: {},
          effectiveAt: now,
          createdAt: now,
          expiresAt: null,
          holdId: null,
          reversesId: id,
          legs: original.entries!.map((entry) => ({
            account: entry.account,
            direction: entry.direction === 'debit' ? 'credit' : 'debit',
            amountMinor: BigInt(entry.amount),
            currency: entry.currency,
          })),
          releases: [],
          event: 'transaction.reversed',
        },
      ]);
      if (result!.status === 'error') throw result!.error;
      if (result!.status !== 'created') throw new Error('a reversal has no external reference to exist already');
      return result!.transaction;
    });
  }

  private async lockReversible(tx: SqlExecutor, tenantId: string, id: string): Promise<OriginalRow> {
    await tx.query(LOCK_TRANSACTION, [tenantId, id]);
    const original = (await tx.query<OriginalRow>(READ_ORIGINAL, [tenantId, id]))[0];
    if (original === undefined) throw new DomainError('NOT_FOUND', `transaction ${id} not found`);
    if (original.reversed_by_id !== null) {
      throw new DomainError('ALREADY_REVERSED', `transaction ${id} is already reversed`, {
        reversedById: original.reversed_by_id,
      });
    }
    if (original.reverses_id !== null) {
      throw new DomainError('NOT_REVERSIBLE', 'a reversal cannot itself be reversed: post a new transaction instead', {
        reversesId: original.reverses_id,
      });
    }
    if (original.status !== 'posted') {
      throw new DomainError(
        'NOT_REVERSIBLE',
        `a ${original.status} transaction cannot be reversed${original.status === 'pending' ? ': void the hold instead' : ''}`,
      );
    }
    return original;
  }
}
