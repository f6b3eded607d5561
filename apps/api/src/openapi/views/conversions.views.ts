import type { ConversionView, PositionsView, QuoteView } from '@ledger/ledger';
import { z } from 'zod';
import { type Assert, type Same, component } from '../components';
import { transactionView } from './ledger.views';
import { actor, amount, currency, id, instant, signedAmount } from './fields';

const rate = z.string().meta({
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  description: 'Units of `to` per unit of `from`, as exact decimal text.',
  examples: ['1.08230'],
});

/** A remainder or exact amount in minor units: decimal text, below zero when rounded up. */
const minorDecimal = z.string().meta({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', examples: ['10822.5'] });

export const conversionView = component(
  'Conversion',
  z
    .strictObject({
      transaction: transactionView,
      rate,
      rounding: z.enum(['half-even', 'half-up', 'down']),
      toAmount: amount.meta({ description: 'Minor units of `to` credited to `to.account` (rounded).' }),
      exactToAmount: minorDecimal.meta({ description: 'The exact product in minor units of `to`, unrounded.' }),
      remainder: minorDecimal.meta({ description: '`exactToAmount` less `toAmount`.' }),
      quoteId: id.nullable(),
    })
    .meta({
      description:
        "The conversion's transaction (four entries through the FX position accounts; `metadata.conversion` " +
        'records the same figures) and what it computed.',
    }),
);

export const quoteView = component(
  'ConversionQuote',
  z
    .strictObject({
      id,
      from: z.strictObject({ currency }),
      to: z.strictObject({ currency }),
      rate,
      actor,
      createdAt: instant,
      expiresAt: instant,
      usedByTransactionId: id.nullable().meta({ description: 'The conversion that used the quote, once.' }),
      usedAt: instant.nullable(),
    })
    .meta({ description: 'A rate held until `expiresAt` for one conversion.' }),
);

export const positionsView = component(
  'ConversionPositions',
  z
    .strictObject({
      asOf: instant,
      pairs: z.array(
        z.strictObject({
          from: currency,
          to: currency,
          conversions: z.number().int().min(0),
          bought: amount.meta({ description: 'Minor units of `from` taken in from customers.' }),
          sold: amount.meta({ description: 'Minor units of `to` paid out to customers.' }),
          rate: rate.meta({ description: 'Volume-weighted: `sold` over `bought` in major units (12 digits).' }),
          openPosition: z.strictObject({ from: signedAmount, to: signedAmount }),
        }),
      ),
      currencies: z.array(
        z.strictObject({
          currency,
          account: z.string().meta({ examples: ['fx:position:EUR'] }),
          position: signedAmount.meta({
            description: "The position account's posted balance: above zero long, below zero short.",
          }),
        }),
      ),
    })
    .meta({
      description:
        'Per direction of conversion (reversed conversions left out): amounts, volume-weighted rate and the ' +
        'open position they make; per currency, the FX position account.',
    }),
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
export type ConversionViewsMatch = [
  Assert<Same<ConversionView, Output<typeof conversionView>>>,
  Assert<Same<QuoteView, Output<typeof quoteView>>>,
  Assert<Same<PositionsView, Output<typeof positionsView>>>,
];
