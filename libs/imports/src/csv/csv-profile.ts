import { z } from 'zod';
import { CSV_DATE_FORMATS } from '../dates';

/** Columns a profile may name or count; a CSV export wider than this is not a statement. */
export const CSV_COLUMNS_MAX = 200;
/** Header names as they appear in exports. */
export const CSV_HEADER_NAME_CHARS_MAX = 100;
/** Values of a direction column ("CR", "Credit", "Haben", ...). */
const DIRECTION_VALUES_MAX = 8;

const columnName = z.string().trim().min(1).max(CSV_HEADER_NAME_CHARS_MAX);
/** A header name when the file has a header row, else a 1-based column position. */
const columnRef = z.union([columnName, z.number().int().min(1).max(CSV_COLUMNS_MAX)]);
const directionValues = z.array(z.string().trim().min(1).max(32)).min(1).max(DIRECTION_VALUES_MAX);

const amountConvention = z.discriminatedUnion('convention', [
  /** One column with a signed amount: negative is money out. */
  z.strictObject({ convention: z.literal('signed'), column: columnRef }),
  /** Two unsigned columns; per row one holds the amount (an empty or zero other column is ignored). */
  z.strictObject({ convention: z.literal('debitCredit'), debitColumn: columnRef, creditColumn: columnRef }),
  /** An unsigned amount and a column saying which way it went. */
  z.strictObject({
    convention: z.literal('direction'),
    column: columnRef,
    directionColumn: columnRef,
    creditValues: directionValues,
    debitValues: directionValues,
  }),
]);

/**
 * A CSV layout described as data, so that a tenant's own bank export can be stored and reused through the
 * API. Header names are matched case-insensitively after trimming.
 */
export const csvProfileSchema = z
  .strictObject({
    delimiter: z.enum([',', ';', '\t', '|']),
    headerRow: z.boolean(),
    /** Required without a header row (the row width to expect); ignored with one. */
    columnCount: z.number().int().min(1).max(CSV_COLUMNS_MAX).optional(),
    encoding: z.literal('utf-8'),
    dateFormat: z.enum(CSV_DATE_FORMATS),
    decimalSeparator: z.enum(['.', ',']),
    thousandsSeparator: z.enum(['', ',', '.', ' ', "'"]),
    /** A fixed currency for files without a currency column. */
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    amount: amountConvention,
    columns: z.strictObject({
      bookedOn: columnRef,
      valueOn: columnRef.optional(),
      description: z.array(columnRef).max(8).optional(),
      currency: columnRef.optional(),
      /** The bank's unique id of the row: used as externalId when present. */
      id: columnRef.optional(),
      reference: columnRef.optional(),
      endToEndId: columnRef.optional(),
      counterpartyName: columnRef.optional(),
      counterpartyAccount: columnRef.optional(),
    }),
  })
  .superRefine((profile, context) => {
    if ((profile.currency === undefined) === (profile.columns.currency === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['currency'],
        message: 'give exactly one of currency and columns.currency',
      });
    }
    if (profile.decimalSeparator === profile.thousandsSeparator) {
      context.addIssue({ code: 'custom', path: ['thousandsSeparator'], message: 'must differ from decimalSeparator' });
    }
    if (!profile.headerRow && profile.columnCount === undefined) {
      context.addIssue({ code: 'custom', path: ['columnCount'], message: 'required when the file has no header row' });
    }
    const refs = [...Object.values(profile.columns).flat(), ...amountColumnRefs(profile.amount)];
    const wrongKind = refs.filter((ref) => (profile.headerRow ? typeof ref !== 'string' : typeof ref !== 'number'));
    if (wrongKind.length > 0) {
      const expected = profile.headerRow ? 'header names' : '1-based column positions';
      context.addIssue({ code: 'custom', path: ['columns'], message: `columns must be ${expected}` });
    }
  });

export type CsvProfile = z.infer<typeof csvProfileSchema>;
export type CsvColumnRef = z.infer<typeof columnRef>;
export type CsvAmountConvention = z.infer<typeof amountConvention>;

export function amountColumnRefs(amount: CsvAmountConvention): CsvColumnRef[] {
  if (amount.convention === 'signed') return [amount.column];
  if (amount.convention === 'debitCredit') return [amount.debitColumn, amount.creditColumn];
  return [amount.column, amount.directionColumn];
}

/** The built-in generic bank export: ISO dates, signed amounts with ',' thousands (so they are quoted). */
export const BANK_CSV_PROFILE: CsvProfile = Object.freeze({
  delimiter: ',',
  headerRow: true,
  encoding: 'utf-8',
  dateFormat: 'YYYY-MM-DD',
  decimalSeparator: '.',
  thousandsSeparator: ',',
  amount: { convention: 'signed', column: 'amount' },
  columns: {
    bookedOn: 'date',
    valueOn: 'value date',
    description: ['description'],
    currency: 'currency',
    reference: 'reference',
    counterpartyName: 'counterparty',
  },
}) as CsvProfile;
