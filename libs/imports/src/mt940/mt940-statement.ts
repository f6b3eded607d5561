import type { StatementLineBuilder } from '../line-builder';
import type { StatementBalance, StatementItem } from '../statement-items';
import type { Mt942Report } from './mt942-report';
import type { Phase } from './mt940-syntax';

export type Mt94xFormat = 'mt940' | 'mt942';

const NO_CLOSING_BALANCE = 'the statement has no closing balance (:62F: or :62M:); its balance is not checked';

/** One statement (MT940) or report (MT942) while its lines are read. */
export interface OpenStatement {
  index: number;
  line: number;
  reference: string;
  accountId: string | null;
  sequenceNumber: string | null;
  /** MT940: the opening balance's; MT942: the first floor limit's (:34F:). */
  currency: string | null;
  opening: StatementBalance | null;
  closing: StatementBalance | null;
  openingSeen: boolean;
  closingSeen: boolean;
  phase: Phase;
  builder: StatementLineBuilder | null;
  /** MT942 only: its floor limits, date/time indication and totals. */
  report: Mt942Report | null;
}

/** A statement just begun at its :20: tag; `report` makes an MT942's report part for it. */
export function openStatement(
  index: number,
  line: number,
  reference: string,
  report: ((statement: OpenStatement) => Mt942Report) | null,
): OpenStatement {
  const statement: OpenStatement = {
    index,
    line,
    reference,
    accountId: null,
    sequenceNumber: null,
    currency: null,
    opening: null,
    closing: null,
    openingSeen: false,
    closingSeen: false,
    phase: 'header',
    builder: null,
    report: null,
  };
  statement.report = report?.(statement) ?? null;
  return statement;
}

/** The statement item of a statement read to its end. */
export function statementItem(statement: OpenStatement, format: Mt94xFormat): StatementItem {
  const report = statement.report;
  // Interim statements of some banks end without any closing balance: their lines are still what was booked.
  // An MT942 has none by definition; its totals (:90D:/:90C:) are checked instead.
  const warnings =
    report !== null
      ? report.finish(statement.line, statement.currency)
      : statement.openingSeen && !statement.closingSeen
        ? [NO_CLOSING_BALANCE]
        : [];
  return {
    kind: 'statement',
    format,
    statementIndex: statement.index,
    lineNumber: statement.line,
    accountId: statement.accountId,
    statementId: statement.reference === '' ? null : statement.reference,
    sequenceNumber: statement.sequenceNumber,
    electronicSequenceNumber: null,
    currency: statement.currency,
    openingBalance: statement.opening,
    closingBalance: statement.closing,
    lineCount: statement.builder?.lineCount ?? 0,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
