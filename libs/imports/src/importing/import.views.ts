import type { StatementCharset } from '../charsets';

export interface SourceView {
  name: string;
  format: string | null;
  /** What its files are written in when they are not UTF-8; null: the format's default. */
  charset: StatementCharset | null;
  /** The ledger account the source's lines belong to. */
  account: string;
  accountId: string;
  currency: string;
  createdAt: string;
}

export interface StatementSummary {
  statementIndex: number;
  accountId: string | null;
  statementId: string | null;
  currency: string | null;
  opening: { amount: string; currency: string; date: string } | null;
  closing: { amount: string; currency: string; date: string } | null;
  lines: number;
  /**
   * opening + lines = closing; a statement that does not add up is stored with a warning. Null: no balances
   * to check.
   */
  balanced: boolean | null;
  balanceProblem?: string;
}

export interface ImportView {
  id: string;
  source: string;
  format: string;
  /** The charset the file was read in; the hash and byte count are of the file as received. */
  charset: StatementCharset;
  fileName: string | null;
  fileSha256: string;
  fileBytes: string;
  /** Lines the file holds. */
  lines: number;
  /** Of those, lines the source already had (overlapping statements, or an interim report's lines). */
  duplicates: number;
  /** An interim report or notification (MT942, camt.052, camt.054): its new lines are stored interim. */
  interim: boolean;
  /** Of the duplicates, lines stored interim until this (final) import brought them and made them final. */
  finalized: number;
  statements: StatementSummary[];
  warnings: string[];
  /** Who imported it: `api-key:<key id>`, `cli:<os user>`, ... */
  actor: string;
  createdAt: string;
}

export interface StoredLineView {
  id: string;
  externalId: string;
  lineNumber: number;
  statementIndex: number;
  bookedOn: string;
  valueOn: string | null;
  amount: string;
  currency: string;
  reversal: boolean;
  typeCode: string | null;
  references: Record<string, string>;
  counterparty: Record<string, string> | null;
  description: string;
  gross?: string;
  fee?: string;
  /** From an interim report, not yet brought by a final statement of the source. */
  interim: boolean;
}

/** A line in a list across imports: where it came from. */
export interface StatementLineListView extends StoredLineView {
  importId: string;
  source: string;
}
