import { z } from 'zod';
import { AMOUNT_PATTERN, SIGNED_AMOUNT_PATTERN } from '../json-schema';

// The fields every view is made of, described once: how an id, a time or an amount is written.

export const id = z.string().meta({ format: 'uuid', examples: ['0194f1a2-7c3e-7d00-8a1b-2c3d4e5f6a7b'] });

export const instant = z
  .string()
  .meta({ format: 'date-time', description: 'ISO 8601, UTC.', examples: ['2026-11-29T10:00:00.000Z'] });

export const day = z.string().meta({ format: 'date', examples: ['2026-11-29'] });

export const amount = z.string().meta({
  pattern: AMOUNT_PATTERN,
  description: 'An amount of minor units as a string of digits ("1050" is 10.50 USD).',
  examples: ['1050'],
});

export const signedAmount = z.string().meta({
  pattern: SIGNED_AMOUNT_PATTERN,
  description: 'A balance in minor units as a string of digits, below zero only where the account allows it.',
  examples: ['-250'],
});

/** A counter that can pass 2^53, so it is a string like amounts. */
export const counter = z.string().meta({ pattern: AMOUNT_PATTERN, examples: ['3'] });

export const currency = z.string().meta({ pattern: '^[A-Z]{3}$', examples: ['USD'] });

export const side = z.enum(['debit', 'credit']);

export const metadata = z.record(z.string(), z.unknown()).meta({ description: 'Free-form JSON set by the client.' });

export const sha256Hex = z.string().meta({ pattern: '^[0-9a-f]{64}$' });

export const count = z.number().int().min(0);

/** Who made a row or a change (see the README's accountability section). */
export const actor = z.string().meta({
  description:
    '`api-key:<key id>`, `operator`, `cli:<os user>`, `reconciler`, `expiry`, `inbound:<source id>`, `demo`, ' +
    'or `unknown` for rows older than the record.',
  examples: ['api-key:0194f1a2-7c3e-7d00-8a1b-2c3d4e5f6a7b', 'reconciler'],
});
