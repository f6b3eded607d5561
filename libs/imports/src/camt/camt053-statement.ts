import type { StatementBalance, StatementError, StatementHeader } from '../statement-items';
import { statementError } from '../statement-items';
import type { CamtDocument } from './camt-documents';
import { dateOf, unsignedAmount } from './camt053-entry';
import { childNodes, nodeAt, textAt, type XmlNode } from './xml-node';

// Booked balances only: OPBD (opening booked) or, when absent, PRCD (previously closed booked) opens the
// statement; CLBD closes it. Available and interim balances (OPAV, CLAV, ITBD, ...) are not the booked
// balance that the lines add up to, so they are read by no one here.
const OPENING_CODES = ['OPBD', 'PRCD'] as const;
const CLOSING_CODE = 'CLBD';

function balanceCode(balance: XmlNode): string | undefined {
  return textAt(balance, 'Tp', 'CdOrPrtry', 'Cd') ?? textAt(balance, 'Tp', 'Cd');
}

function readBalance(balance: XmlNode, errors: StatementError[]): StatementBalance | null {
  const amount = nodeAt(balance, 'Amt');
  if (amount === undefined) {
    errors.push(statementError(balance.line, 'balance (Bal) has no amount (Amt)'));
    return null;
  }
  const currency = amount.attributes.Ccy;
  const magnitude = unsignedAmount(amount.text.trim(), currency, amount.line, 'balance amount');
  const indicator = nodeAt(balance, 'CdtDbtInd');
  const indicatorText = indicator?.text.trim();
  const date = dateOf(nodeAt(balance, 'Dt'), 'balance date');
  if (!magnitude.ok) errors.push(...magnitude.errors);
  if (indicatorText !== 'CRDT' && indicatorText !== 'DBIT') {
    errors.push(statementError((indicator ?? balance).line, 'balance (Bal) has no CdtDbtInd of CRDT or DBIT'));
  }
  if (!date.ok) errors.push(...date.errors);
  else if (date.value === null) errors.push(statementError(balance.line, 'balance (Bal) has no date (Dt)'));
  if (!magnitude.ok || !date.ok || date.value === null || currency === undefined) return null;
  if (indicatorText !== 'CRDT' && indicatorText !== 'DBIT') return null;
  return { amountMinor: indicatorText === 'DBIT' ? -magnitude.value : magnitude.value, currency, date: date.value };
}

export interface CamtStatementParts {
  header: Omit<StatementHeader, 'kind' | 'format' | 'statementIndex' | 'lineNumber' | 'lineCount'>;
  errors: StatementError[];
}

/** Account and identity of a statement: available before its first entry, which follows them in the schema. */
export function statementAccount(head: XmlNode): string | null {
  const accountId = nodeAt(head, 'Acct', 'Id');
  return textAt(accountId, 'IBAN') ?? textAt(accountId, 'Othr', 'Id') ?? null;
}

export function statementParts(
  head: XmlNode,
  firstLineCurrency: string | null,
  document: CamtDocument,
): CamtStatementParts {
  const errors: StatementError[] = [];
  const accountId = statementAccount(head);
  if (accountId === null)
    errors.push(statementError(head.line, `${document.noun} (${head.name}) has no account identification (Acct/Id)`));
  const balances = new Map<string, StatementBalance>();
  // An interim report's balances are not read at all: not checked, a mistake in one does not refuse its lines.
  for (const balance of document.balanceChecked ? childNodes(head, 'Bal') : []) {
    const code = balanceCode(balance);
    if (code === undefined || (!OPENING_CODES.some((each) => each === code) && code !== CLOSING_CODE)) continue;
    if (balances.has(code)) {
      errors.push(statementError(balance.line, `statement has a second ${code} balance`));
      continue;
    }
    const read = readBalance(balance, errors);
    if (read !== null) balances.set(code, read);
  }
  const openingBalance = balances.get('OPBD') ?? balances.get('PRCD') ?? null;
  const closingBalance = balances.get(CLOSING_CODE) ?? null;
  return {
    header: {
      accountId,
      statementId: textAt(head, 'Id') ?? null,
      sequenceNumber: textAt(head, 'LglSeqNb') ?? null,
      electronicSequenceNumber: textAt(head, 'ElctrncSeqNb') ?? null,
      currency:
        textAt(head, 'Acct', 'Ccy') ?? openingBalance?.currency ?? closingBalance?.currency ?? firstLineCurrency,
      openingBalance,
      closingBalance,
    },
    errors,
  };
}
