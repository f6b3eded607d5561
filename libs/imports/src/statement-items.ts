// What every statement parser yields, whatever the file format. Parsers stream: items come one by one, in
// file order, so that a 1 GB file is read with flat memory. A statement item comes AFTER its lines, because
// MT940 gives the closing balance last; lines name their statement by statementIndex.

export type StatementFormatFamily = 'camt053' | 'camt052' | 'camt054' | 'mt940' | 'mt942' | 'bai2' | 'csv';

export interface StatementBalance {
  /** Signed: a debit balance (the holder owes the bank) is negative. */
  amountMinor: bigint;
  /** Each balance carries its own currency: real files (and the camt samples) do not always agree. */
  currency: string;
  /** YYYY-MM-DD. */
  date: string;
}

export interface StatementHeader {
  kind: 'statement';
  format: StatementFormatFamily;
  /** 0-based position of the statement in the file. */
  statementIndex: number;
  /** 1-based source line where the statement starts (:20:, <Stmt>, or 1 for CSV). */
  lineNumber: number;
  /** IBAN or account number as written by the bank; for CSV the caller's options.accountId. */
  accountId: string | null;
  /** camt Stmt/Id, MT940 :20:. */
  statementId: string | null;
  /** camt LglSeqNb, MT940 :28C: (statement number/page, as written). */
  sequenceNumber: string | null;
  /** camt ElctrncSeqNb. */
  electronicSequenceNumber: string | null;
  /** The account currency: camt Acct/Ccy or the opening balance's, MT940 :60F:, CSV when all rows agree. */
  currency: string | null;
  openingBalance: StatementBalance | null;
  closingBalance: StatementBalance | null;
  /** Number of line items yielded for this statement. */
  lineCount: number;
  /** What the statement lacks that the import reports without refusing it (an MT940 without :62a:). */
  warnings?: string[];
}

export interface LineReferences {
  accountServicerRef?: string;
  endToEndId?: string;
  instructionId?: string;
  transactionId?: string;
  mandateId?: string;
  bankReference?: string;
  customerReference?: string;
  payoutId?: string;
  sourceId?: string;
  gatewayId?: string;
}

export interface Counterparty {
  name?: string;
  account?: string;
  /** The other party's bank: a BIC or a national bank code (MT940 ?30, CNTP). */
  bankCode?: string;
  /** On whose behalf the payer paid (SEPA ABWA+, ULTD) and for whom the payee received it (ABWE+, ULTC). */
  ultimateDebtor?: string;
  ultimateCreditor?: string;
}

export interface StatementLine {
  kind: 'line';
  /** 1-based source line where the line starts (:61:, <Ntry> or <TxDtls>, the CSV record). */
  lineNumber: number;
  statementIndex: number;
  /** 1-based position among the lines of its statement. */
  sequenceInStatement: number;
  /** YYYY-MM-DD. */
  bookedOn: string;
  valueOn: string | null;
  /** Signed from the account holder's view: a credit (money in) is positive, a debit negative. */
  amountMinor: bigint;
  currency: string;
  /** The bank books this as the reversal (storno) of an earlier booking. */
  reversal: boolean;
  references: LineReferences;
  typeCode?: string;
  counterparty?: Counterparty;
  description: string;
  /** Source text of the line or entry, cut at RAW_CHARS_MAX: for display and support, not for parsing. */
  raw: string;
  /** Stable identity for dedupe across overlapping statements; see line-identity.ts for the rule. */
  externalId: string;
  /** Gateway exports only: the gross amount and the fee of which amountMinor (the net) is gross - fee. */
  grossMinor?: bigint;
  feeMinor?: bigint;
}

/** An operating error: the source has something that cannot be read exactly. Parsing goes on after it. */
export interface StatementError {
  kind: 'error';
  /** 1-based source line; for XML the line where the offending element starts. */
  lineNumber: number;
  reason: string;
}

export type StatementItem = StatementHeader | StatementLine | StatementError;

export function statementError(lineNumber: number, reason: string): StatementError {
  return { kind: 'error', lineNumber, reason };
}
