import { isCurrencyCode, parseMinorUnits, MoneyError } from '@ledger/money';
import { z } from 'zod';
import { METADATA_BYTES_MAX, METADATA_DEPTH_MAX } from './limits';

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

/** Free-form JSON object, bounded in size and nesting. */
export const metadataSchema = z
  .record(z.string().max(64), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_BYTES_MAX, {
    message: `metadata must be at most ${METADATA_BYTES_MAX} bytes of JSON`,
  })
  .refine((value) => depthOf(value) <= METADATA_DEPTH_MAX, {
    message: `metadata must nest at most ${METADATA_DEPTH_MAX} levels`,
  });

export const currencySchema = z
  .string()
  .refine((code) => isCurrencyCode(code), { message: 'must be an ISO 4217 currency code such as "USD"' });

/** A positive amount of minor units, written as a JSON string of digits ("1050"). */
export const positiveAmountSchema = z.string().transform((text, context) => {
  try {
    const amountMinor = parseMinorUnits(text);
    if (amountMinor === 0n) {
      context.addIssue({ code: 'custom', message: 'must be greater than zero' });
      return z.NEVER;
    }
    return amountMinor;
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
});

/** An identifier a client chooses (external reference): printable, no control characters. */
export const identifierSchema = (lengthMax: number) =>
  z
    .string()
    .min(1)
    .max(lengthMax)
    .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters');

export const sideSchema = z.enum(['debit', 'credit']);

/** An ISO 8601 time with an explicit offset ("2026-11-29T10:00:00Z"). */
export const instantSchema = z.iso.datetime({ offset: true }).transform((text) => new Date(text));
