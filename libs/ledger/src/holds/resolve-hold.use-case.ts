import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { EventType } from '@ledger/outbox';
import { isUuid } from '@ledger/ids';
import { type NewItem, PostingEngine } from '../transactions/posting-engine';
import type { TransactionStatus, TransactionView } from '../transactions/transaction.view';
import { HoldRepository, type OpenHold } from './hold.repository';

export type HoldAction = 'post' | 'void' | 'expire';

export interface ResolveHoldCommand {
  tenantId: string;
  holdId: string;
  action: HoldAction;
  /** Who resolves it: the caller's key, or `expiry` for the worker. */
  actor: string;
  /** post only: capture this much of a two-leg hold; the rest is released. Default: all of it. */
  amountMinor?: bigint;
  /** post only: the capture's own external reference (a payment order's, which its provider's report names). */
  externalRef?: string;
  now?: Date;
}

const OUTCOME: Record<HoldAction, { status: TransactionStatus; event: EventType }> = {
  post: { status: 'posted', event: 'hold.posted' },
  void: { status: 'voided', event: 'hold.voided' },
  expire: { status: 'expired', event: 'hold.expired' },
};

function capturedLegs(hold: OpenHold, amountMinor: bigint | undefined) {
  const legs = hold.entries.map((entry) => ({
    account: entry.accountId,
    direction: entry.direction,
    amountMinor: entry.amountMinor,
    currency: entry.currency,
  }));
  if (amountMinor === undefined) return legs;
  const held = legs[0]!.amountMinor;
  if (legs.length !== 2) {
    throw new DomainError('VALIDATION_FAILED', 'only a two-leg hold can be captured in part', {
      fields: [{ path: 'amount', message: 'this hold has more than two legs' }],
    });
  }
  if (amountMinor > held) {
    throw new DomainError('VALIDATION_FAILED', `cannot capture more than the ${held} held`, {
      fields: [{ path: 'amount', message: `at most ${held}` }],
    });
  }
  return legs.map((leg) => ({ ...leg, amountMinor }));
}

/**
 * Posts, voids or expires a hold: a new immutable record that names it. The hold's open_holds row is
 * locked first, so of any racing resolutions exactly one happens and the others get 409.
 */
@Injectable()
export class ResolveHoldUseCase {
  constructor(
    private readonly db: Database,
    private readonly holds: HoldRepository,
    private readonly engine: PostingEngine,
  ) {}

  async execute(command: ResolveHoldCommand): Promise<TransactionView> {
    if (!isUuid(command.holdId)) throw new DomainError('NOT_FOUND', `transaction ${command.holdId} not found`);
    const holdId = command.holdId.toLowerCase();
    return this.db.transaction('read committed', async () => {
      const hold = await this.holds.lockOpen(command.tenantId, holdId);
      if (hold === undefined) throw await this.whyNotOpen(command.tenantId, holdId);
      const now = command.now ?? new Date();
      if (command.action === 'expire' && hold.expiresAt > now)
        throw new DomainError('VALIDATION_FAILED', 'the hold has not expired yet');
      // Past its expiry a hold can only be released (voided, or expired by the worker), never captured.
      if (command.action === 'post' && hold.expiresAt <= now) {
        throw new DomainError('HOLD_EXPIRED', `hold ${holdId} expired at ${hold.expiresAt.toISOString()}`, {
          holdId,
          expiresAt: hold.expiresAt.toISOString(),
        });
      }
      const { status, event } = OUTCOME[command.action];
      const item: NewItem = {
        id: newId(now.getTime()),
        status,
        externalRef: command.action === 'post' ? (command.externalRef ?? null) : null,
        contentHash: sha256(`${command.action}:${holdId}:${command.amountMinor ?? 'all'}`),
        description: null,
        metadata: {},
        effectiveAt: now,
        createdAt: now,
        expiresAt: null,
        holdId,
        reversesId: null,
        actor: command.actor,
        legs: command.action === 'post' ? capturedLegs(hold, command.amountMinor) : [],
        releases: hold.entries,
        event,
      };
      const [result] = await this.engine.write(command.tenantId, [item]);
      if (result!.status !== 'created')
        throw result!.status === 'error' ? result!.error : new Error('a resolution cannot already exist');
      return result!.transaction;
    });
  }

  private async whyNotOpen(tenantId: string, holdId: string): Promise<DomainError> {
    const status = await this.holds.statusOf(tenantId, holdId);
    if (status === undefined) return new DomainError('NOT_FOUND', `transaction ${holdId} not found`);
    if (status !== 'pending') return new DomainError('NOT_A_HOLD', `transaction ${holdId} is ${status}, not a hold`);
    return new DomainError('HOLD_ALREADY_RESOLVED', `hold ${holdId} is already posted, voided or expired`, { holdId });
  }
}
