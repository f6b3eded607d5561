import { Injectable } from '@nestjs/common';
import { namedTransactionId } from '../transactions/named-transaction.repository';
import type { GroupedAnswer, GroupedKey, ItemFromNamed } from '../transactions/grouped-request';
import { PostingGroups } from '../transactions/posting-groups';
import type { TransactionView } from '../transactions/transaction.view';
import { type ReverseTransactionCommand, reversalItem } from './reversal-item';

export type { ReverseTransactionCommand } from './reversal-item';

/** Posts the mirror image of a posted transaction; like any posting it must respect every account's limit. */
@Injectable()
export class ReverseTransactionUseCase {
  constructor(private readonly groups: PostingGroups) {}

  /** In the caller's transaction, or one of its own (a payment order's saga). */
  execute(command: ReverseTransactionCommand): Promise<TransactionView> {
    return this.groups.writeNamed(command.tenantId, reversal(command));
  }

  /** A client's request: written with the postings that arrive meanwhile (see PostingGroups), under its key. */
  submit<A>(command: ReverseTransactionCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    return this.groups.submitNamed(command.tenantId, key, reversal(command));
  }
}

function reversal(command: ReverseTransactionCommand): ItemFromNamed {
  const id = namedTransactionId(command.id);
  const now = new Date();
  return { id, make: (original) => reversalItem(original, { ...command, id }, now) };
}
