import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { HoldRepository } from './hold.repository';
import { ResolveHoldUseCase } from './resolve-hold.use-case';

export const EXPIRED_HOLDS_PER_RUN_MAX = 1_000;
/** The actor of the expiry records. */
export const EXPIRY_ACTOR = 'expiry';

/** The worker's job: every hold past its expiry gets an 'expired' record, each in its own transaction. */
@Injectable()
export class ExpireHoldsUseCase {
  constructor(
    private readonly holds: HoldRepository,
    private readonly resolve: ResolveHoldUseCase,
  ) {}

  async execute(now = new Date()): Promise<{ expired: number; alreadyResolved: number }> {
    const due = await this.holds.findExpired(now, EXPIRED_HOLDS_PER_RUN_MAX);
    let expired = 0;
    let alreadyResolved = 0;
    for (const hold of due) {
      try {
        await this.resolve.execute({ ...hold, action: 'expire', actor: EXPIRY_ACTOR, now });
        expired++;
      } catch (error) {
        // Posted or voided a moment ago by a client: that resolution stands.
        if (!(error instanceof DomainError) || error.code !== 'HOLD_ALREADY_RESOLVED') throw error;
        alreadyResolved++;
      }
    }
    return { expired, alreadyResolved };
  }
}
