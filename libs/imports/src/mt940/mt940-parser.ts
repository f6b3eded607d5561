import { StatementLineBuilder } from '../line-builder';
import { type StatementBalance, type StatementItem, statementError } from '../statement-items';
import { readLines, shown, type SourceLine } from '../text-input';
import type { Phase } from './mt940-syntax';
import { parseBalance, parseStatementLine } from './mt940-fields';
import { movementDraft, type PendingMovement } from './mt940-movement';
import { MT942_TAGS, Mt942Report } from './mt942-report';
import { type Mt94xFormat, type OpenStatement, openStatement, statementItem } from './mt940-statement';
import {
  END_OF_MESSAGE,
  ENVELOPE_CONTROLS,
  ENVELOPE_LINES,
  MT942_TAGS_AFTER_NARRATIVE,
  TAG_LINE,
  TAGS_AFTER_NARRATIVE,
} from './mt940-syntax';

/** SWIFT lines are 65 characters; some banks write :86: lines of a few hundred. */
export const MT940_LINE_CHARS_MAX = 2048;
/** Physical lines of one :61: with its :86: (the standard allows 1 + 1 + 6). */
export const MT940_LINES_PER_MOVEMENT_MAX = 100;

type Continuation = 'information' | 'supplementary' | 'ignore' | 'none';

/**
 * MT940 as a tag state machine over physical lines: header tags, :60a:, (:61: [:86:])*, :62a:, trailer.
 * MT942 is read by the same machine: header tags, :34F:, :13D:, (:61: [:86:])*, :90D:, :90C:, no balances.
 */
class Mt940Reader {
  private readonly out: StatementItem[] = [];
  private statement: OpenStatement | null = null;
  private pending: PendingMovement | null = null;
  private continuation: Continuation = 'none';
  /** The last tag was :86: (of a line or of the statement): its continuation lines are free text. */
  private inNarrative = false;
  private statementCount = 0;
  private errorCount = 0;
  private readonly tagsAfterNarrative: ReadonlySet<string>;

  constructor(private readonly format: Mt94xFormat) {
    this.tagsAfterNarrative = format === 'mt942' ? MT942_TAGS_AFTER_NARRATIVE : TAGS_AFTER_NARRATIVE;
  }

  drain(): StatementItem[] {
    return this.out.splice(0);
  }

  accept({ lineNumber, text, tooLong }: SourceLine): void {
    if (tooLong) return this.error(lineNumber, `line is longer than ${MT940_LINE_CHARS_MAX} characters`);
    if (ENVELOPE_CONTROLS.test(text)) {
      for (const part of text.split(ENVELOPE_CONTROLS)) this.acceptText(lineNumber, part);
      return;
    }
    this.acceptText(lineNumber, text);
  }

  private acceptText(lineNumber: number, text: string): void {
    if (text.trim() === '') return;
    const tag = TAG_LINE.exec(text);
    if (tag !== null && (!this.inNarrative || this.tagsAfterNarrative.has(tag[1])))
      return this.tag(tag[1], tag[2], lineNumber, text);
    if (END_OF_MESSAGE.test(text)) return this.endStatement();
    // Continuation lines belong to the last tag, even to one that was refused (they are then ignored too).
    if (this.continuation !== 'none') return this.continueTag(text, text, lineNumber);
    if (ENVELOPE_LINES.some((pattern) => pattern.test(text))) return this.endStatement();
    this.error(lineNumber, `unexpected text ${shown(text)}: neither a tag (":NN:") nor the continuation of one`);
  }

  finish(): void {
    this.endStatement();
    if (this.statementCount === 0 && this.errorCount === 0)
      this.error(
        1,
        this.format === 'mt942'
          ? 'the file contains no MT942 report (no :20: tag)'
          : 'the file contains no MT940 statement (no :20: tag)',
      );
  }

  private error(lineNumber: number, reason: string): void {
    this.errorCount += 1;
    this.out.push(statementError(lineNumber, reason));
  }

  /** Adds a physical line to the pending movement: rawText as written, content without its tag. */
  private continueTag(rawText: string, content: string, lineNumber: number): void {
    const pending = this.pending;
    if (this.continuation === 'ignore' || pending === null) return;
    if (pending.raw.length >= MT940_LINES_PER_MOVEMENT_MAX) {
      if (!pending.refused)
        this.error(lineNumber, `statement line has more than ${MT940_LINES_PER_MOVEMENT_MAX} physical lines`);
      pending.refused = true;
      return;
    }
    pending.raw.push(rawText);
    if (this.continuation === 'information') pending.information.push(content);
    else pending.supplementary.push(content);
  }

  private tag(tag: string, value: string, lineNumber: number, text: string): void {
    if (tag !== '86') this.flushPending();
    // Single-line tags take no continuation: a stray line after :25: or :62F: is reported, not swallowed.
    this.continuation = 'none';
    this.inNarrative = tag === '86';
    if (tag === '20') {
      this.endStatement();
      this.startStatement(lineNumber, value.trim());
      return;
    }
    const statement = this.statement;
    if (statement === null) {
      this.continuation = 'ignore';
      return this.error(lineNumber, `tag :${tag}: outside a statement (a statement starts with :20:)`);
    }
    if (statement.report !== null && MT942_TAGS.has(tag)) {
      this.continuation = 'ignore';
      return statement.report.tag(tag, value, lineNumber);
    }
    switch (tag) {
      case '21':
      case 'NS':
        this.continuation = 'ignore';
        return;
      case '25':
        if (this.inPhase(statement, 'header', tag, lineNumber)) statement.accountId = value.trim();
        return;
      case '28':
      case '28C':
        if (this.inPhase(statement, 'header', tag, lineNumber)) statement.sequenceNumber = value.trim();
        return;
      case '60F':
      case '60M':
        if (statement.report !== null) break;
        return this.opening(statement, tag, value, lineNumber);
      case '61':
        return this.movement(statement, value, lineNumber, text);
      case '86':
        if (this.pending === null) {
          this.continuation = 'ignore'; // information about the statement itself, not about a line
          return;
        }
        this.continuation = 'information';
        return this.continueTag(text, value, lineNumber);
      case '62F':
      case '62M':
        if (statement.report !== null) break;
        return this.closingBalance(statement, tag, value, lineNumber);
      case '64':
      case '65':
        if (statement.report !== null) break;
        if (this.inPhase(statement, 'closed', tag, lineNumber)) this.checkBalance(value, lineNumber);
        return;
    }
    this.continuation = 'ignore';
    const what = statement.report === null ? 'an MT940 statement' : 'an MT942 report';
    this.error(lineNumber, `unknown tag :${tag}: in ${what}`);
  }

  private inPhase(statement: OpenStatement, expected: Phase, tag: string, lineNumber: number): boolean {
    if (statement.phase === expected) return true;
    this.continuation = 'ignore';
    const where: Record<Phase, string> = statement.report?.phases ?? {
      header: 'before the opening balance :60F:',
      lines: 'between the opening balance :60F: and the closing balance :62F:',
      closed: 'after the closing balance :62F:',
    };
    this.error(lineNumber, `tag :${tag}: ${where[statement.phase]}; it belongs ${where[expected]}`);
    return false;
  }

  private checkBalance(value: string, lineNumber: number): StatementBalance | null {
    const balance = parseBalance(value);
    if (balance.ok) return balance.value;
    this.error(lineNumber, balance.reason);
    return null;
  }

  private opening(statement: OpenStatement, tag: string, value: string, lineNumber: number): void {
    if (!this.inPhase(statement, 'header', tag, lineNumber)) return;
    if (statement.accountId === null)
      this.error(lineNumber, 'statement has no account identification :25: before its opening balance');
    statement.openingSeen = true;
    statement.opening = this.checkBalance(value, lineNumber);
    statement.currency = statement.opening?.currency ?? null;
    statement.phase = 'lines';
  }

  private closingBalance(statement: OpenStatement, tag: string, value: string, lineNumber: number): void {
    if (!this.inPhase(statement, 'lines', tag, lineNumber)) return;
    statement.closingSeen = true;
    statement.closing = this.checkBalance(value, lineNumber);
    statement.phase = 'closed';
  }

  private movement(statement: OpenStatement, value: string, lineNumber: number, text: string): void {
    if (!this.inPhase(statement, 'lines', '61', lineNumber)) return;
    // Without a readable opening balance (MT942: floor limit) there is no currency; its error says why.
    const currency = statement.currency;
    if (currency === null) {
      this.continuation = 'ignore';
      return;
    }
    const parsed = parseStatementLine(value, currency);
    if (!parsed.ok) {
      this.continuation = 'ignore';
      return this.error(lineNumber, parsed.reason);
    }
    const { supplementary } = parsed.value;
    this.pending = {
      line: lineNumber,
      movement: parsed.value,
      currency,
      information: [],
      supplementary: supplementary === undefined ? [] : [supplementary],
      raw: [text],
      refused: false,
    };
    this.continuation = 'supplementary';
  }

  private flushPending(): void {
    const pending = this.pending;
    const statement = this.statement;
    this.pending = null;
    if (pending === null || statement === null || pending.refused) return;
    const draft = movementDraft(pending);
    statement.builder ??= new StatementLineBuilder(statement.index, statement.accountId);
    const built = statement.builder.build(draft, undefined);
    if (!Array.isArray(built)) {
      statement.report?.count(built.amountMinor);
      this.out.push(built);
    } else for (const problem of built) this.error(problem.lineNumber, problem.reason);
  }

  private startStatement(lineNumber: number, reference: string): void {
    const report = (statement: OpenStatement) =>
      new Mt942Report(
        (phase) => (statement.phase = phase),
        () => statement.phase,
        (currency) => (statement.currency ??= currency),
        (line, reason) => this.error(line, reason),
      );
    this.statement = openStatement(this.statementCount, lineNumber, reference, this.format === 'mt942' ? report : null);
    this.statementCount += 1;
  }

  private endStatement(): void {
    this.flushPending();
    this.continuation = 'none';
    this.inNarrative = false;
    const statement = this.statement;
    if (statement === null) return;
    this.statement = null;
    const report = statement.report;
    if (report === null && !statement.openingSeen) this.error(statement.line, 'statement has no opening balance :60F:');
    this.out.push(statementItem(statement, this.format));
  }
}

async function* parseMt94x(format: Mt94xFormat, text: AsyncIterable<string>): AsyncGenerator<StatementItem[]> {
  const reader = new Mt940Reader(format);
  for await (const line of readLines(text, MT940_LINE_CHARS_MAX)) {
    reader.accept(line);
    const items = reader.drain();
    if (items.length > 0) yield items;
  }
  reader.finish();
  yield reader.drain();
}

/** SWIFT MT940 customer statements, one physical line at a time. */
export function parseMt940(text: AsyncIterable<string>): AsyncGenerator<StatementItem[]> {
  return parseMt94x('mt940', text);
}

/** SWIFT MT942 interim transaction reports: MT940's reader, with floor limits and totals for balances. */
export function parseMt942(text: AsyncIterable<string>): AsyncGenerator<StatementItem[]> {
  return parseMt94x('mt942', text);
}
