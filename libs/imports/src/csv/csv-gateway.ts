import { currencyCode, toMinor } from '../amounts';
import { isoDateOfDateTime } from '../dates';
import { referenceExternalId } from '../line-identity';
import { shown } from '../text-input';
import { normalizedHeader, type RowResult } from './csv-columns';

// A payment gateway's balance-transaction export (payouts reconciliation): one row per movement of the
// gateway balance. Amounts are major-unit decimals ("12.50"), net = gross - fee, fee positive when charged.
const REQUIRED_COLUMNS = ['id', 'created', 'currency', 'gross', 'fee', 'net'] as const;
const OPTIONAL_COLUMNS = ['available_on', 'reporting_category', 'source_id', 'payout_id', 'description'] as const;
type GatewayColumn = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
export type GatewayColumns = ReadonlyMap<GatewayColumn, number>;

export function resolveGatewayColumns(
  header: readonly string[],
): { ok: true; value: GatewayColumns } | { ok: false; reason: string } {
  const names = header.map(normalizedHeader);
  const columns = new Map<GatewayColumn, number>();
  for (const name of [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]) {
    const index = names.indexOf(name);
    if (index !== -1 && names.indexOf(name, index + 1) !== -1)
      return { ok: false, reason: `the header has column ${shown(name)} more than once` };
    if (index !== -1) columns.set(name, index);
  }
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.has(name));
  if (missing.length > 0)
    return {
      ok: false,
      reason: `the header lacks the required column(s) ${missing.map((name) => shown(name)).join(', ')}`,
    };
  return { ok: true, value: columns };
}

const UNIX_SECONDS = /^\d{9,11}$/;

// Exports write "2024-03-01 09:15:02" (UTC); the API writes Unix seconds. Either way the UTC calendar day.
function gatewayDate(text: string): string | null {
  if (UNIX_SECONDS.test(text)) return new Date(Number(text) * 1000).toISOString().slice(0, 10);
  return isoDateOfDateTime(text);
}

export function gatewayRow(
  columns: GatewayColumns,
  fields: readonly string[],
  lineNumber: number,
  raw: string,
): RowResult {
  const field = (name: GatewayColumn): string => (fields[columns.get(name) ?? -1] ?? '').trim();
  const optional = (name: GatewayColumn): string | undefined => field(name) || undefined;
  const reasons: string[] = [];
  const id = field('id');
  if (id === '') reasons.push('id is empty');
  const bookedOn = gatewayDate(field('created'));
  if (bookedOn === null) reasons.push(`created ${shown(field('created'))} is not a date or date-time`);
  const availableText = optional('available_on');
  const valueOn = availableText === undefined ? null : gatewayDate(availableText);
  if (availableText !== undefined && valueOn === null)
    reasons.push(`available_on ${shown(availableText)} is not a date or date-time`);
  const currency = currencyCode(field('currency'));
  if (!currency.ok) return { ok: false, reasons: [...reasons, currency.reason] };
  const amount = (name: 'gross' | 'fee' | 'net'): bigint => {
    const converted = toMinor(field(name), currency.value, {}, name);
    if (!converted.ok) reasons.push(converted.reason);
    return converted.ok ? converted.value : 0n;
  };
  const grossMinor = amount('gross');
  const feeMinor = amount('fee');
  const netMinor = amount('net');
  if (reasons.length === 0 && netMinor !== grossMinor - feeMinor) {
    reasons.push(`net ${shown(field('net'))} is not gross ${shown(field('gross'))} minus fee ${shown(field('fee'))}`);
  }
  if (reasons.length > 0 || bookedOn === null) return { ok: false, reasons };
  const category = optional('reporting_category');
  return {
    ok: true,
    draft: {
      lineNumber,
      bookedOn,
      valueOn,
      amountMinor: netMinor,
      currency: currency.value,
      // A refund is a new movement; only a gateway's own reversal categories undo an earlier one.
      reversal: category?.endsWith('_reversal') ?? false,
      references: { gatewayId: id, sourceId: optional('source_id'), payoutId: optional('payout_id') },
      typeCode: category,
      description: field('description'),
      raw,
      grossMinor,
      feeMinor,
    },
    bankId: referenceExternalId('id', id),
  };
}
