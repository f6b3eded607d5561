import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid, newId, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { DESCRIPTION_LENGTH_MAX } from '../domain/limits';
import { PostingEngine } from '../transactions/posting-engine';
import type { TransactionView } from '../transactions/transaction.view';
import { ReversalRepository, type ReversalOriginal } from './reversal.repository';

export interface ReverseTransactionCommand {
  tenantId: string;
  id: string;
  /** Who reverses it (recorded on the reversal). */
  actor: string;
  description?: string;
  /** The reversal's own external reference (a payment order's return, which its provider's report names). */
  externalRef?: string;
}

/** Posts the mirror image of a posted transaction; like any posting it must respect every account's limit. */
@Injectable()
export class ReverseTransactionUseCase {
  constructor(
    private readonly db: Database,
    private readonly reversals: ReversalRepository,
    private readonly engine: PostingEngine,
  ) {}

  async execute(command: ReverseTransactionCommand): Promise<TransactionView> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `transaction ${command.id} not found`);
    const id = command.id.toLowerCase();
    return this.db.transaction('read committed', async () => {
      const original = await this.lockReversible(command.tenantId, id);
      const now = new Date();
      const description = command.description ?? `Reversal of ${id}`.slice(0, DESCRIPTION_LENGTH_MAX);
      const [result] = await this.engine.write(command.tenantId, [
        {
          id: newId(now.getTime()),
          status: 'posted',
          externalRef: command.externalRef ?? null,
          contentHash: sha256(`reverse:${id}`),
          description,
          metadata: {},
          effectiveAt: now,
          createdAt: now,
          expiresAt: null,
          holdId: null,
          reversesId: id,
          actor: command.actor,
          legs: original.entries.map((entry) => ({
            account: entry.accountId,
            direction: entry.direction === 'debit' ? 'credit' : 'debit',
            amountMinor: entry.amountMinor,
            currency: entry.currency,
          })),
          releases: [],
          event: 'transaction.reversed',
        },
      ]);
      if (result!.status === 'error') throw result!.error;
      if (result!.status !== 'created') throw new Error('a reversal is new: its original is locked and unreversed');
      return result!.transaction;
    });
  }

  private async lockReversible(tenantId: string, id: string): Promise<ReversalOriginal> {
    const original = await this.reversals.lockOriginal(tenantId, id);
    if (original === undefined) throw new DomainError('NOT_FOUND', `transaction ${id} not found`);
    if (original.reversedById !== null) {
      throw new DomainError('ALREADY_REVERSED', `transaction ${id} is already reversed`, {
        reversedById: original.reversedById,
      });
    }
    if (original.reversesId !== null) {
      throw new DomainError('NOT_REVERSIBLE', 'a reversal cannot itself be reversed: post a new transaction instead', {
        reversesId: original.reversesId,
      });
    }
    if (original.status !== 'posted') {
      const hint = original.status === 'pending' ? ': void the hold instead' : '';
      throw new DomainError('NOT_REVERSIBLE', `a ${original.status} transaction cannot be reversed${hint}`);
    }
    return original;
  }
}
