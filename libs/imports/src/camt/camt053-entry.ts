import { currencyCode, toMinor } from '../amounts';
import { isoDate } from '@ledger/calendar';
import { isoDateOfDateTime } from '../dates';
import { referenceExternalId } from '../line-identity';
import type { LineDraft, StatementLineBuilder } from '../line-builder';
import { type LineReferences, type StatementError, statementError, type StatementItem } from '../statement-items';
import { shown } from '../text-input';
import { bankTransactionCode, type TransactionDetail } from './camt053-transaction';
import type { EntryRaw } from './camt-entry-raw';
import { childNode, textAt, type XmlNode } from './xml-node';

/*
 * One Ntry becomes statement lines as follows (the batch rule):
 * - no or one TxDtls: one line with the entry's amount (Ntry/Amt is what was booked; a TxDtls amount may be in
 *   another currency or the instructed amount) and the details of that TxDtls;
 * - several TxDtls, each with an amount in the entry's currency, whose signed sum equals the entry's amount:
 *   one line per TxDtls with its own amount, references and counterparty;
 * - several TxDtls otherwise (an amount missing, another currency, a sum that differs): ONE line for the
 *   entry, with the entry's references only and "batch of N transactions" when it has no AddtlNtryInf, so
 *   the booked amount is never split on a guess. Either way the lines of an entry add up to the entry.
 * Entries whose status is not BOOK (PDNG, INFO) are not part of the booked balance and yield nothing.
 */

type Result<T> = { ok: true; value: T } | { ok: false; errors: StatementError[] };

interface EntryBasics {
  lineNumber: number;
  amountMinor: bigint;
  currency: string;
  bookedOn: string;
  valueOn: string | null;
  reversal: boolean;
}

function signOf(node: { text: string; line: number } | undefined, fallback: string | undefined): Result<1n | -1n> {
  const indicator = node?.text ?? fallback;
  if (indicator === 'CRDT') return { ok: true, value: 1n };
  if (indicator === 'DBIT') return { ok: true, value: -1n };
  const line = node?.line ?? 0;
  return {
    ok: false,
    errors: [statementError(line, `credit/debit indicator ${shown(indicator ?? '')} is neither CRDT nor DBIT`)],
  };
}

/** An ISO amount is unsigned (the direction is in CdtDbtInd); a sign in the text is an error, not a hint. */
export function unsignedAmount(
  text: string,
  currency: string | undefined,
  line: number,
  label: string,
): Result<bigint> {
  if (currency === undefined)
    return { ok: false, errors: [statementError(line, `${label} has no currency (Ccy attribute)`)] };
  const code = currencyCode(currency);
  if (!code.ok || code.value !== currency) {
    return {
      ok: false,
      errors: [statementError(line, `${label}: currency ${shown(currency)} is not a supported ISO 4217 code`)],
    };
  }
  if (/^[+-]/.test(text)) {
    return {
      ok: false,
      errors: [statementError(line, `${label} ${shown(text)} must be unsigned; the direction is in CdtDbtInd`)],
    };
  }
  const amount = toMinor(text, currency, {}, label);
  if (!amount.ok) return { ok: false, errors: [statementError(line, amount.reason)] };
  return { ok: true, value: amount.value };
}

/** Dt or DtTm child of a date element (BookgDt, ValDt, Bal/Dt). */
export function dateOf(parent: XmlNode | undefined, label: string): Result<string | null> {
  if (parent === undefined) return { ok: true, value: null };
  const date = childNode(parent, 'Dt');
  const dateTime = childNode(parent, 'DtTm');
  const text = date?.text.trim() ?? dateTime?.text.trim();
  const parsed = date !== undefined ? isoDate(text ?? '') : isoDateOfDateTime(text ?? '');
  if (parsed === null) {
    return {
      ok: false,
      errors: [statementError((date ?? dateTime ?? parent).line, `${label} ${shown(text ?? '')} is not a valid date`)],
    };
  }
  return { ok: true, value: parsed };
}

/** reportDate: undefined for a statement, which must give BookgDt; for an interim report, its date if known. */
function entryBasics(entry: XmlNode, reportDate: string | null | undefined): Result<EntryBasics> {
  const errors: StatementError[] = [];
  const amountNode = childNode(entry, 'Amt');
  let amountMinor = 0n;
  if (amountNode === undefined) errors.push(statementError(entry.line, 'entry (Ntry) has no amount (Amt)'));
  const amount =
    amountNode && unsignedAmount(amountNode.text.trim(), amountNode.attributes.Ccy, amountNode.line, 'entry amount');
  if (amount !== undefined && !amount.ok) errors.push(...amount.errors);
  const creditDebit = childNode(entry, 'CdtDbtInd');
  const sign = signOf(creditDebit && { text: creditDebit.text.trim(), line: creditDebit.line }, undefined);
  if (!sign.ok)
    errors.push(
      ...(creditDebit === undefined ? [statementError(entry.line, 'entry (Ntry) has no CdtDbtInd')] : sign.errors),
    );
  if (amount?.ok && sign.ok) amountMinor = amount.value * sign.value;
  const booked = dateOf(childNode(entry, 'BookgDt'), 'booking date');
  const value = dateOf(childNode(entry, 'ValDt'), 'value date');
  // camt.052 and camt.054 may leave BookgDt out (it is optional there): a booked entry then counts as booked
  // on its value date, else on the day the report was made. A camt.053 statement must say it.
  const interimDate = reportDate === undefined ? null : ((value.ok ? value.value : null) ?? reportDate);
  const bookedOn = booked.ok ? (booked.value ?? interimDate) : null;
  if (!booked.ok) errors.push(...booked.errors);
  else if (bookedOn === null) errors.push(statementError(entry.line, 'entry (Ntry) has no booking date (BookgDt)'));
  if (!value.ok) errors.push(...value.errors);
  if (errors.length > 0) return { ok: false, errors };
  const reversalText = textAt(entry, 'RvslInd');
  return {
    ok: true,
    value: {
      lineNumber: entry.line,
      amountMinor,
      currency: amountNode?.attributes.Ccy ?? '',
      bookedOn: bookedOn ?? '',
      valueOn: value.ok ? value.value : null,
      reversal: reversalText === 'true' || reversalText === '1',
    },
  };
}

/** The signed amounts of a batch's TxDtls when they can stand for the entry; null when the entry stays whole. */
function splitAmounts(
  basics: EntryBasics,
  entry: XmlNode,
  details: readonly TransactionDetail[],
): Result<bigint[] | null> {
  if (details.length < 2) return { ok: true, value: null };
  if (details.some((detail) => detail.amount === undefined || detail.amount.currency !== basics.currency)) {
    return { ok: true, value: null };
  }
  const errors: StatementError[] = [];
  const amounts: bigint[] = [];
  for (const detail of details) {
    const { text, currency, line } = detail.amount ?? { text: '', currency: undefined, line: detail.line };
    const amount = unsignedAmount(text, currency, line, 'transaction amount');
    const sign = signOf(detail.creditDebit, textAt(entry, 'CdtDbtInd'));
    if (!amount.ok) errors.push(...amount.errors);
    if (!sign.ok) errors.push(...sign.errors);
    if (amount.ok && sign.ok) amounts.push(amount.value * sign.value);
  }
  if (errors.length > 0) return { ok: false, errors };
  const sum = amounts.reduce((total, amount) => total + amount, 0n);
  return { ok: true, value: sum === basics.amountMinor ? amounts : null };
}

function counterpartyFor(amountMinor: bigint, detail: TransactionDetail): TransactionDetail['debtor'] {
  // Money in: the other side is the debtor; money out: the creditor.
  return amountMinor >= 0n ? detail.debtor : detail.creditor;
}

/**
 * The draft of one line, field by field (no object spread: this runs for every entry). References keep the
 * order the TxDtls gives them, the entry's AcctSvcrRef (or the detail's) in their place and NtryRef last.
 */
function draftOf(
  basics: EntryBasics,
  references: LineReferences | undefined,
  line: { lineNumber: number; amountMinor: bigint; accountServicerRef: string | undefined; bankReference?: string },
  rest: Pick<LineDraft, 'typeCode' | 'counterparty' | 'description' | 'raw'>,
): LineDraft {
  const merged: LineReferences =
    references === undefined
      ? { accountServicerRef: line.accountServicerRef, bankReference: line.bankReference }
      : {
          endToEndId: references.endToEndId,
          instructionId: references.instructionId,
          transactionId: references.transactionId,
          mandateId: references.mandateId,
          accountServicerRef: line.accountServicerRef,
          customerReference: references.customerReference,
          bankReference: line.bankReference,
        };
  return {
    lineNumber: line.lineNumber,
    amountMinor: line.amountMinor,
    currency: basics.currency,
    bookedOn: basics.bookedOn,
    valueOn: basics.valueOn,
    reversal: basics.reversal,
    references: merged,
    typeCode: rest.typeCode,
    counterparty: rest.counterparty,
    description: rest.description,
    raw: rest.raw,
  };
}

/**
 * The entry's lines, built one at a time as they are taken: a batch of 10,000 is never 10,000 lines at once.
 * A line's raw is the entry as received; a line of a split batch has the entry but its TxDtls, then its own.
 */
export function* entryItems(
  entry: XmlNode,
  details: readonly TransactionDetail[],
  raw: EntryRaw,
  builder: StatementLineBuilder,
  reportDate: string | null | undefined,
): Generator<StatementItem, void, undefined> {
  const status = textAt(entry, 'Sts', 'Cd') ?? textAt(entry, 'Sts');
  if (status !== undefined && status !== 'BOOK') return;
  const basics = entryBasics(entry, reportDate);
  if (!basics.ok) return yield* basics.errors;
  const split = splitAmounts(basics.value, entry, details);
  if (!split.ok) return yield* split.errors;

  const entryServicerRef = textAt(entry, 'AcctSvcrRef');
  const entryReference = textAt(entry, 'NtryRef');
  const entryInfo = textAt(entry, 'AddtlNtryInf');
  const entryType = bankTransactionCode(entry);
  const entryId =
    entryServicerRef !== undefined
      ? referenceExternalId('acctsvcrref', entryServicerRef)
      : entryReference !== undefined
        ? referenceExternalId('ntryref', entryReference)
        : undefined;

  if (split.value === null) {
    const detail = details.length === 1 ? details[0] : undefined;
    const ownRef = detail?.references.accountServicerRef;
    const line = builder.build(
      draftOf(
        basics.value,
        detail?.references,
        {
          lineNumber: basics.value.lineNumber,
          amountMinor: basics.value.amountMinor,
          accountServicerRef: entryServicerRef ?? ownRef,
          bankReference: entryReference,
        },
        {
          typeCode: detail?.typeCode ?? entryType,
          counterparty: detail && counterpartyFor(basics.value.amountMinor, detail),
          description: detail
            ? detail.remittance || detail.additionalInfo || entryInfo || ''
            : (entryInfo ?? (details.length > 1 ? `batch of ${details.length} transactions` : '')),
          raw: raw.whole,
        },
      ),
      entryId ?? (ownRef === undefined ? undefined : referenceExternalId('acctsvcrref', ownRef)),
    );
    if (Array.isArray(line)) yield* line;
    else yield line;
    return;
  }
  const amounts = split.value;
  for (let index = 0; index < amounts.length; index += 1) {
    const amountMinor = amounts[index];
    const detail = details[index];
    const ownRef = detail.references.accountServicerRef;
    const hasOwnRef = ownRef !== undefined && ownRef !== entryServicerRef;
    const line = builder.build(
      draftOf(
        basics.value,
        detail.references,
        {
          lineNumber: detail.line,
          amountMinor,
          accountServicerRef: ownRef ?? entryServicerRef,
          bankReference: entryReference,
        },
        {
          typeCode: detail.typeCode ?? entryType,
          counterparty: counterpartyFor(amountMinor, detail),
          description: detail.remittance || detail.additionalInfo || entryInfo || '',
          raw: raw.head + detail.raw,
        },
      ),
      hasOwnRef ? referenceExternalId('acctsvcrref', ownRef) : entryId && `${entryId}/${index + 1}`,
    );
    if (Array.isArray(line)) yield* line;
    else yield line;
  }
}
