import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { NamedTransactionRepository, namedTransactionId } from '../transactions/named-transaction.repository';
import { PostingEngine } from '../transactions/posting-engine';
import { type GroupedAnswer, type GroupedKey, PostingGroups } from '../transactions/posting-groups';
import type { TransactionView } from '../transactions/transaction.view';
import { type ReverseTransactionCommand, reversalItem } from './reversal-item';

export type { ReverseTransactionCommand } from './reversal-item';

/** Posts the mirror image of a posted transaction; like any posting it must respect every account's limit. */
@Injectable()
export class ReverseTransactionUseCase {
  constructor(
    private readonly db: Database,
    private readonly named: NamedTransactionRepository,
    private readonly engine: PostingEngine,
    private readonly groups: PostingGroups,
  ) {}

  /** In the caller's transaction, or one of its own (a payment order's saga). */
  async execute(command: ReverseTransactionCommand): Promise<TransactionView> {
    const id = namedTransactionId(command.id);
    const now = new Date();
    return this.db.transaction('read committed', async () => {
      const original = (await this.named.lockAndRead(command.tenantId, [id])).get(id);
      const [result] = await this.engine.write(command.tenantId, [reversalItem(original, { ...command, id }, now)]);
      if (result!.status === 'error') throw result!.error;
      if (result!.status !== 'created') throw new Error('a reversal is new: its original is locked and unreversed');
      return result!.transaction;
    });
  }

  /** A client's request: written with the postings that arrive meanwhile (see PostingGroups), under its key. */
  submit<A>(command: ReverseTransactionCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    const id = namedTransactionId(command.id);
    const now = new Date();
    return this.groups.submitNamed(command.tenantId, key, {
      id,
      make: (original) => reversalItem(original, { ...command, id }, now),
    });
  }
}
