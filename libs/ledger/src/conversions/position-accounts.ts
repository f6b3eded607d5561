import { Injectable } from '@nestjs/common';
import { CreateAccountUseCase } from '../accounts/create-account.use-case';
import { positionAccountCode } from '../domain/conversion';

/**
 * The tenant's FX position accounts, one per currency, made on first use in the conversion's own
 * transaction (a refused conversion leaves none behind). Credit-normal and allowed below zero: a
 * positive position is currency the desk took in (long), a negative one currency it paid out (short).
 */
@Injectable()
export class PositionAccounts {
  constructor(private readonly createAccount: CreateAccountUseCase) {}

  /** `existing`: the position account codes already read; only the others are made. */
  async ensure(tenantId: string, currencies: readonly string[], existing: ReadonlySet<string>): Promise<void> {
    // In code order, so two first conversions of opposite pairs wait for each other's insert, never in a circle.
    for (const currency of [...new Set(currencies)].sort()) {
      if (existing.has(positionAccountCode(currency))) continue;
      await this.createAccount.execute({
        tenantId,
        unlessTaken: true,
        request: {
          code: positionAccountCode(currency),
          name: `FX position ${currency}`,
          currency,
          normalBalance: 'credit',
          allowNegative: true,
          metadata: {},
        },
      });
    }
  }
}
