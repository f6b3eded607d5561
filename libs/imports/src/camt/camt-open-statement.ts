import { isoDateOfDateTime } from '../dates';
import { StatementLineBuilder } from '../line-builder';
import type { StatementItem } from '../statement-items';
import type { CamtDocument } from './camt-documents';
import type { EntryRaw } from './camt-entry-raw';
import { entryItems } from './camt053-entry';
import { statementAccount, statementParts } from './camt053-statement';
import type { TransactionDetail } from './camt053-transaction';
import { XmlCapture } from './xml-capture';
import { textAt, type XmlNode } from './xml-node';

/** Element nodes kept for one statement's head (its elements before and between the entries). */
export const STATEMENT_HEAD_NODES_MAX = 5000;
/** Characters held for one statement's head: with the node count, what bounds its memory. */
export const STATEMENT_HEAD_RETAINED_CHARS_MAX = 1024 * 1024;

/** What the camt reader hands on: items, and what makes an entry's lines or a statement's item when taken. */
export type PendingItems = Array<StatementItem | (() => Iterable<StatementItem>)>;

/** One statement (report, notification) being read: its head's elements, and the builder of its lines. */
export class OpenStatement {
  readonly headCapture: XmlCapture;
  readonly head: XmlNode;
  private builder: StatementLineBuilder | null = null;
  private firstLineCurrency: string | null = null;
  private headChecked = false;
  private headProblemsReported = 0;

  constructor(
    private readonly document: CamtDocument,
    readonly index: number,
    readonly line: number,
  ) {
    this.headCapture = new XmlCapture(
      { name: document.report, line, attributes: {} },
      { nodesMax: STATEMENT_HEAD_NODES_MAX, charsMax: STATEMENT_HEAD_RETAINED_CHARS_MAX },
      'statement header',
    );
    this.head = this.headCapture.root;
  }

  // The schema puts account and balances before the entries, so the head is complete at the first Ntry.
  lineBuilder(out: PendingItems): StatementLineBuilder {
    this.reportHeadProblems(out);
    if (!this.headChecked) {
      out.push(...statementParts(this.head, null, this.document).errors);
      this.headChecked = true;
    }
    this.builder ??= new StatementLineBuilder(this.index, statementAccount(this.head));
    return this.builder;
  }

  reportHeadProblems(out: PendingItems): void {
    const problems = this.headCapture.problems;
    out.push(...problems.slice(this.headProblemsReported));
    this.headProblemsReported = problems.length;
  }

  *entryLines(
    entry: XmlNode,
    details: readonly TransactionDetail[],
    raw: EntryRaw,
    builder: StatementLineBuilder,
  ): Generator<StatementItem> {
    // Only an interim report may stand in for an entry's missing booking date with its own (see entryBasics).
    const created = this.document.balanceChecked ? undefined : textAt(this.head, 'CreDtTm');
    const reportDate = this.document.balanceChecked
      ? undefined
      : created === undefined
        ? null
        : isoDateOfDateTime(created.trim());
    for (const item of entryItems(entry, details, raw, builder, reportDate)) {
      if (item.kind === 'line') this.firstLineCurrency ??= item.currency;
      yield item;
    }
  }

  /** The statement's item, made once its entries' lines were taken: their count and first currency are known. */
  item(builder: StatementLineBuilder): StatementItem {
    const { header } = statementParts(this.head, this.firstLineCurrency, this.document);
    return {
      kind: 'statement',
      format: this.document.format,
      statementIndex: this.index,
      lineNumber: this.line,
      ...header,
      lineCount: builder.lineCount,
    };
  }
}
