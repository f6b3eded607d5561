import { ownText } from '../own-text';
import type { Counterparty, LineReferences } from '../statement-items';
import { childNodes, nodeAt, textAt, type XmlNode } from './xml-node';

/** What the line mapping needs of one TxDtls, kept instead of its element tree so big batches stay small. */
export interface TransactionDetail {
  line: number;
  amount?: { text: string; currency: string | undefined; line: number };
  creditDebit?: { text: string; line: number };
  references: LineReferences;
  debtor: Counterparty;
  creditor: Counterparty;
  remittance: string;
  additionalInfo?: string;
  typeCode?: string;
  raw: string;
}

/** BkTxCd as one code: "PMNT/RCDT/BOOK" (ISO domain/family/sub-family) or the proprietary code. */
export function bankTransactionCode(parent: XmlNode | undefined): string | undefined {
  const domain = textAt(parent, 'BkTxCd', 'Domn', 'Cd');
  if (domain !== undefined) {
    const family = textAt(parent, 'BkTxCd', 'Domn', 'Fmly', 'Cd');
    const subFamily = textAt(parent, 'BkTxCd', 'Domn', 'Fmly', 'SubFmlyCd');
    return [domain, family, subFamily].filter((part) => part !== undefined).join('/');
  }
  return textAt(parent, 'BkTxCd', 'Prtry', 'Cd');
}

// camt.053.001.02-07 put the name directly in Dbtr/Cdtr; .08 wraps the party in Pty.
function party(details: XmlNode, role: 'Dbtr' | 'Cdtr'): Counterparty {
  const name = textAt(details, 'RltdPties', role, 'Pty', 'Nm') ?? textAt(details, 'RltdPties', role, 'Nm');
  const accountId = nodeAt(details, 'RltdPties', `${role}Acct`, 'Id');
  const account = textAt(accountId, 'IBAN') ?? textAt(accountId, 'Othr', 'Id');
  return { name, account };
}

function structuredReference(details: XmlNode): string | undefined {
  for (const structured of childNodes(nodeAt(details, 'RmtInf'), 'Strd')) {
    const reference = textAt(structured, 'CdtrRefInf', 'Ref');
    if (reference !== undefined) return reference;
  }
  return undefined;
}

function transactionAmount(details: XmlNode): TransactionDetail['amount'] {
  // TxDtls/Amt exists from version 03 on; version 02 only has AmtDtls/TxAmt/Amt.
  const amount = nodeAt(details, 'Amt') ?? nodeAt(details, 'AmtDtls', 'TxAmt', 'Amt');
  if (amount === undefined) return undefined;
  return { text: amount.text.trim(), currency: amount.attributes.Ccy, line: amount.line };
}

// SEPA writes NOTPROVIDED where the payer gave no end-to-end id: that is no reference at all.
function provided(reference: string | undefined): string | undefined {
  return reference === 'NOTPROVIDED' ? undefined : reference;
}

/** raw: the TxDtls as received (see EntryRawRecorder). */
export function toTransactionDetail(details: XmlNode, raw: string): TransactionDetail {
  const creditDebit = nodeAt(details, 'CdtDbtInd');
  const remittance = childNodes(nodeAt(details, 'RmtInf'), 'Ustrd')
    .map((node) => node.text.trim())
    .filter((text) => text !== '')
    .join(' ');
  return {
    line: details.line,
    amount: transactionAmount(details),
    creditDebit: creditDebit === undefined ? undefined : { text: creditDebit.text.trim(), line: creditDebit.line },
    references: {
      endToEndId: provided(textAt(details, 'Refs', 'EndToEndId')),
      instructionId: textAt(details, 'Refs', 'InstrId'),
      transactionId: textAt(details, 'Refs', 'TxId'),
      mandateId: textAt(details, 'Refs', 'MndtId'),
      accountServicerRef: textAt(details, 'Refs', 'AcctSvcrRef'),
      customerReference: structuredReference(details),
    },
    debtor: party(details, 'Dbtr'),
    creditor: party(details, 'Cdtr'),
    remittance,
    additionalInfo: textAt(details, 'AddtlTxInf'),
    typeCode: bankTransactionCode(details),
    raw,
  };
}

/** Own copies of a detail's strings (see ownText) and how many characters it holds; ownStrings(), field by field. */
export function ownTransactionDetail(detail: TransactionDetail): { value: TransactionDetail; chars: number } {
  const counter = { chars: 0 };
  const own = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    counter.chars += text.length;
    return ownText(text);
  };
  const { amount, creditDebit, references, debtor, creditor } = detail;
  const value: TransactionDetail = {
    line: detail.line,
    amount: amount && { text: own(amount.text)!, currency: own(amount.currency), line: amount.line },
    creditDebit: creditDebit && { text: own(creditDebit.text)!, line: creditDebit.line },
    references: {
      endToEndId: own(references.endToEndId),
      instructionId: own(references.instructionId),
      transactionId: own(references.transactionId),
      mandateId: own(references.mandateId),
      accountServicerRef: own(references.accountServicerRef),
      customerReference: own(references.customerReference),
    },
    debtor: { name: own(debtor.name), account: own(debtor.account) },
    creditor: { name: own(creditor.name), account: own(creditor.account) },
    remittance: own(detail.remittance)!,
    additionalInfo: own(detail.additionalInfo),
    typeCode: own(detail.typeCode),
    raw: own(detail.raw)!,
  };
  return { value, chars: counter.chars };
}
