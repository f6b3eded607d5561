import { currencyCode, toMinor } from '../amounts';
import { dateInFormat } from '../dates';
import { referenceExternalId } from '../line-identity';
import type { LineDraft } from '../line-builder';
import { shown } from '../text-input';
import { amountColumnRefs, type CsvColumnRef, type CsvProfile } from './csv-profile';

/** Column positions (0-based) of a profile, resolved against the header row or the declared width. */
type Resolved = Map<CsvColumnRef, number>;

export type RowResult = { ok: true; draft: LineDraft; bankId?: string } | { ok: false; reasons: string[] };

function profileRefs(profile: CsvProfile): CsvColumnRef[] {
  const { description = [], ...single } = profile.columns;
  return [
    ...Object.values(single).filter((ref) => ref !== undefined),
    ...description,
    ...amountColumnRefs(profile.amount),
  ];
}

export function normalizedHeader(name: string): string {
  return name.trim().toLowerCase();
}

/** Maps every column the profile names to its position, or says which are missing from the header. */
export function resolveColumns(
  profile: CsvProfile,
  header: readonly string[] | null,
): { ok: true; value: Resolved } | { ok: false; reason: string } {
  const resolved: Resolved = new Map();
  const missing: string[] = [];
  const names = header?.map(normalizedHeader) ?? [];
  for (const ref of profileRefs(profile)) {
    if (typeof ref === 'number') {
      resolved.set(ref, ref - 1);
      continue;
    }
    const wanted = normalizedHeader(ref);
    const index = names.indexOf(wanted);
    if (index === -1) missing.push(ref);
    else if (names.indexOf(wanted, index + 1) !== -1)
      return { ok: false, reason: `the header has column ${shown(ref)} more than once` };
    else resolved.set(ref, index);
  }
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `the header lacks the required column(s) ${[...new Set(missing)].map((name) => shown(name)).join(', ')}`,
    };
  }
  return { ok: true, value: resolved };
}

function signedAmount(
  profile: CsvProfile,
  field: (ref: CsvColumnRef) => string,
  currency: string,
  reasons: string[],
): bigint {
  const format = { decimalSeparator: profile.decimalSeparator, thousandsSeparator: profile.thousandsSeparator };
  const read = (text: string, label: string, unsigned: boolean): bigint => {
    if (unsigned && /^[+-]/.test(text)) {
      reasons.push(`${label} ${shown(text)} must be unsigned in this profile`);
      return 0n;
    }
    const amount = toMinor(text, currency, format, label);
    if (!amount.ok) reasons.push(amount.reason);
    return amount.ok ? amount.value : 0n;
  };
  const amount = profile.amount;
  if (amount.convention === 'signed') return read(field(amount.column), 'amount', false);
  if (amount.convention === 'debitCredit') {
    const debitText = field(amount.debitColumn);
    const creditText = field(amount.creditColumn);
    const debit = debitText === '' ? 0n : read(debitText, 'debit amount', true);
    const credit = creditText === '' ? 0n : read(creditText, 'credit amount', true);
    if (debit !== 0n && credit !== 0n) reasons.push('the row has both a debit and a credit amount');
    if (debitText === '' && creditText === '') reasons.push('the row has neither a debit nor a credit amount');
    return credit - debit;
  }
  const magnitude = read(field(amount.column), 'amount', true);
  const direction = field(amount.directionColumn).toLowerCase();
  if (amount.creditValues.some((value) => value.toLowerCase() === direction)) return magnitude;
  if (amount.debitValues.some((value) => value.toLowerCase() === direction)) return -magnitude;
  reasons.push(
    `direction ${shown(field(amount.directionColumn))} is none of ` +
      [...amount.creditValues, ...amount.debitValues].map((value) => shown(value)).join(', '),
  );
  return 0n;
}

/** One data row of a column profile (the built-in bank profile or a tenant's own) as a line draft. */
export function columnsRow(
  profile: CsvProfile,
  columns: Resolved,
  fields: readonly string[],
  lineNumber: number,
  raw: string,
): RowResult {
  const field = (ref: CsvColumnRef): string => (fields[columns.get(ref) ?? -1] ?? '').trim();
  const optional = (ref: CsvColumnRef | undefined): string | undefined =>
    ref === undefined ? undefined : field(ref) || undefined;
  const reasons: string[] = [];
  const bookedText = field(profile.columns.bookedOn);
  const bookedOn = dateInFormat(bookedText, profile.dateFormat);
  if (bookedOn === null) reasons.push(`booking date ${shown(bookedText)} is not a ${profile.dateFormat} date`);
  const valueText = optional(profile.columns.valueOn);
  const valueOn = valueText === undefined ? null : dateInFormat(valueText, profile.dateFormat);
  if (valueText !== undefined && valueOn === null)
    reasons.push(`value date ${shown(valueText)} is not a ${profile.dateFormat} date`);
  const currencyText =
    profile.columns.currency === undefined ? (profile.currency ?? '') : field(profile.columns.currency);
  const currency = currencyCode(currencyText);
  if (!currency.ok) reasons.push(currency.reason);
  const amountMinor = currency.ok ? signedAmount(profile, field, currency.value, reasons) : 0n;
  const id = optional(profile.columns.id);
  if (reasons.length > 0 || bookedOn === null || !currency.ok) return { ok: false, reasons };
  return {
    ok: true,
    draft: {
      lineNumber,
      bookedOn,
      valueOn,
      amountMinor,
      currency: currency.value,
      reversal: false,
      references: {
        customerReference: optional(profile.columns.reference),
        endToEndId: optional(profile.columns.endToEndId),
      },
      counterparty: {
        name: optional(profile.columns.counterpartyName),
        account: optional(profile.columns.counterpartyAccount),
      },
      description: (profile.columns.description ?? [])
        .map(field)
        .filter((text) => text !== '')
        .join(' '),
      raw,
    },
    bankId: id === undefined ? undefined : referenceExternalId('id', id),
  };
}
