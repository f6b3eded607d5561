import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { NamedTransactionRepository, namedTransactionId } from '../transactions/named-transaction.repository';
import { PostingEngine } from '../transactions/posting-engine';
import { type GroupedAnswer, type GroupedKey, PostingGroups } from '../transactions/posting-groups';
import type { TransactionView } from '../transactions/transaction.view';
import { type ResolveHoldCommand, resolutionItem } from './resolution-item';

export type { HoldAction, ResolveHoldCommand } from './resolution-item';

/**
 * Posts, voids or expires a hold: a new immutable record that names it. The hold is locked first, so
 * of any racing resolutions exactly one happens and the others get 409.
 */
@Injectable()
export class ResolveHoldUseCase {
  constructor(
    private readonly db: Database,
    private readonly named: NamedTransactionRepository,
    private readonly engine: PostingEngine,
    private readonly groups: PostingGroups,
  ) {}

  /** In the caller's transaction, or one of its own (the expiry worker, a payment order's saga). */
  async execute(command: ResolveHoldCommand): Promise<TransactionView> {
    const holdId = namedTransactionId(command.holdId);
    const now = command.now ?? new Date();
    return this.db.transaction('read committed', async () => {
      const hold = (await this.named.lockAndRead(command.tenantId, [holdId])).get(holdId);
      const [result] = await this.engine.write(command.tenantId, [resolutionItem(hold, { ...command, holdId }, now)]);
      if (result!.status !== 'created')
        throw result!.status === 'error' ? result!.error : new Error('a resolution cannot already exist');
      return result!.transaction;
    });
  }

  /** A client's request: written with the postings that arrive meanwhile (see PostingGroups), under its key. */
  submit<A>(command: ResolveHoldCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    const holdId = namedTransactionId(command.holdId);
    const now = command.now ?? new Date();
    return this.groups.submitNamed(command.tenantId, key, {
      id: holdId,
      make: (hold) => resolutionItem(hold, { ...command, holdId }, now),
    });
  }
}
