import { Injectable } from '@nestjs/common';
import { namedTransactionId } from '../transactions/named-transaction.repository';
import type { GroupedAnswer, GroupedKey, ItemFromNamed } from '../transactions/grouped-request';
import { PostingGroups } from '../transactions/posting-groups';
import type { TransactionView } from '../transactions/transaction.view';
import { type ResolveHoldCommand, resolutionItem } from './resolution-item';

export type { HoldAction, ResolveHoldCommand } from './resolution-item';

/**
 * Posts, voids or expires a hold: a new immutable record that names it. The hold is locked first, so
 * of any racing resolutions exactly one happens and the others get 409.
 */
@Injectable()
export class ResolveHoldUseCase {
  constructor(private readonly groups: PostingGroups) {}

  /** In the caller's transaction, or one of its own (the expiry worker, a payment order's saga). */
  execute(command: ResolveHoldCommand): Promise<TransactionView> {
    return this.groups.writeNamed(command.tenantId, resolution(command));
  }

  /** A client's request: written with the postings that arrive meanwhile (see PostingGroups), under its key. */
  submit<A>(command: ResolveHoldCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    return this.groups.submitNamed(command.tenantId, key, resolution(command));
  }
}

function resolution(command: ResolveHoldCommand): ItemFromNamed {
  const holdId = namedTransactionId(command.holdId);
  const now = command.now ?? new Date();
  return { id: holdId, make: (hold) => resolutionItem(hold, { ...command, holdId }, now) };
}
