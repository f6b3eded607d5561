import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { volumeWeightedRate } from '../domain/conversion';
import { ConversionRepository } from './conversion.repository';

/** Directions of conversion reported (ordered currency pairs): far more than a desk trades. */
export const POSITION_PAIRS_MAX = 1000;
/** Position accounts reported: one per currency, and ISO 4217 has fewer than 200. */
export const POSITION_ACCOUNTS_MAX = 500;

export interface PairPositionView {
  from: string;
  to: string;
  conversions: number;
  /** Minor units of `from` the desk took in (debited from customers). */
  bought: string;
  /** Minor units of `to` the desk paid out (credited to customers). */
  sold: string;
  /** Volume-weighted: sold over bought, in major units, 12 significant digits. */
  rate: string;
  /** What these conversions left in the positions: +bought of `from`, -sold of `to`. */
  openPosition: { from: string; to: string };
}

export interface CurrencyPositionView {
  currency: string;
  account: string;
  /** The position account's posted balance (credit-normal): above zero long, below zero short. */
  position: string;
}

export interface PositionsView {
  asOf: string;
  pairs: PairPositionView[];
  currencies: CurrencyPositionView[];
}

/**
 * The FX desk's report: per direction of conversion (reversed ones left out) the amounts and rate, and
 * per currency the position account's balance, which also counts any posting made to it by hand.
 */
@Injectable()
export class GetPositionsUseCase {
  constructor(
    private readonly db: Database,
    private readonly conversions: ConversionRepository,
  ) {}

  async execute({ tenantId }: { tenantId: string }): Promise<PositionsView> {
    // Two reads: a conversion committed between them shows in the balances and not yet in the pairs.
    return this.db.transaction('read committed', async () => {
      const pairs = await this.conversions.pairTotals(tenantId, POSITION_PAIRS_MAX);
      const accounts = await this.conversions.positionAccounts(tenantId, POSITION_ACCOUNTS_MAX);
      return {
        asOf: new Date().toISOString(),
        pairs: pairs.map((pair) => ({
          from: pair.fromCurrency,
          to: pair.toCurrency,
          conversions: pair.conversions,
          bought: pair.fromAmountMinor.toString(),
          sold: pair.toAmountMinor.toString(),
          rate: volumeWeightedRate(pair, pair)!,
          openPosition: { from: pair.fromAmountMinor.toString(), to: (-pair.toAmountMinor).toString() },
        })),
        currencies: accounts.map((account) => ({
          currency: account.currency,
          account: account.code,
          position: (account.postedCredits - account.postedDebits).toString(),
        })),
      };
    });
  }
}
