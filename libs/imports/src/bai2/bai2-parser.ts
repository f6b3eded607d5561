import { StatementLineBuilder } from '../line-builder';
import { ReferenceOccurrences } from '../line-identity';
import { type StatementHeader, type StatementItem, statementError } from '../statement-items';
import { readLines, type SourceLine, shown } from '../text-input';
import {
  type AccountIdentifier,
  accountStatement,
  type GroupContext,
  readAccountIdentifier,
  readDetail,
} from './bai2-account';
import { readFileHeader, readGroupHeader } from './bai2-headers';
import { BAI2_LINE_CHARS_MAX, type Bai2Record, RecordAssembler } from './bai2-records';
import { readTrailer, trailerWarnings } from './bai2-trailers';

interface OpenFile {
  line: number;
  fileId: string | null;
  records: number;
  groups: number;
  groupTotalsMinor: bigint;
}

interface OpenGroup {
  line: number;
  /** Null when the 02 could not be read: its accounts are then skipped (the 02's error says why). */
  context: GroupContext | null;
  records: number;
  accounts: number;
  accountTotalsMinor: bigint;
}

interface OpenAccount {
  line: number;
  /** Null when the 03 could not be read or has no group: its records are then skipped. */
  identifier: AccountIdentifier | null;
  records: number;
  amountsMinor: bigint;
  builder: StatementLineBuilder | null;
  references: ReferenceOccurrences;
}

/**
 * BAI2 as a record state machine: 01 file, 02 group, 03 account, 16 details, 49, 98, 99 trailers; 88
 * continues the record before it. Each account (03 to 49) is one statement. Its statement item is yielded
 * when the next account starts or the file ends, so that the group and file trailers after it can add their
 * warnings to it (the group's last account, or the file's).
 */
class Bai2Reader {
  private readonly out: StatementItem[] = [];
  private readonly records = new RecordAssembler(
    (record) => this.dispatch(record),
    (lineNumber, reason) => this.error(lineNumber, reason),
  );
  private file: OpenFile | null = null;
  private group: OpenGroup | null = null;
  private account: OpenAccount | null = null;
  /** The last closed account's statement item, not yielded yet. */
  private held: StatementHeader | null = null;
  /** Trailer warnings with no statement to carry them yet (a group without accounts). */
  private pendingWarnings: string[] = [];
  private statementCount = 0;
  private errorCount = 0;
  private fileSeen = false;
  private lastLine = 0;

  drain(): StatementItem[] {
    return this.out.splice(0);
  }

  accept(line: SourceLine): void {
    this.lastLine = line.lineNumber;
    this.records.accept(line);
  }

  finish(): void {
    this.records.finish();
    if (this.account !== null)
      this.error(this.account.line, 'the account has no account trailer (49): the file is cut short');
    this.closeAccount();
    if (this.group !== null) this.error(this.group.line, 'the group has no group trailer (98): the file is cut short');
    this.group = null;
    if (this.file !== null)
      this.error(this.lastLine, `the file has no file trailer (99) after line ${this.lastLine}: it is cut short`);
    if (!this.fileSeen && this.errorCount === 0) this.error(1, 'the file has no BAI2 file header (01 record)');
    if (this.statementCount === 0 && this.errorCount === 0) this.error(1, 'the file reports no account (03 record)');
    this.flushHeld();
  }

  private error(lineNumber: number, reason: string): void {
    this.errorCount += 1;
    this.out.push(statementError(lineNumber, reason));
  }

  /** Adds a record's physical lines to the counts of the file, group and account it is in. */
  private count(record: Bai2Record): void {
    const lines = record.lines.length;
    if (this.file !== null) this.file.records += lines;
    if (this.group !== null) this.group.records += lines;
    if (this.account !== null) this.account.records += lines;
  }

  private dispatch(record: Bai2Record): void {
    if (record.refused) return this.count(record);
    switch (record.type) {
      case '01':
        return this.fileHeader(record);
      case '02':
        return this.groupHeader(record);
      case '03':
        return this.accountIdentifier(record);
      case '16':
        return this.detail(record);
      case '49':
        return this.accountTrailer(record);
      case '98':
        return this.groupTrailer(record);
      case '99':
        return this.fileTrailer(record);
      default:
        this.count(record);
        this.error(
          record.lineNumber,
          `unknown record type ${shown(record.type)} (BAI2 has 01, 02, 03, 16, 49, 88, 98 and 99)`,
        );
    }
  }

  private fileHeader(record: Bai2Record): void {
    if (this.file !== null) {
      this.error(
        record.lineNumber,
        `file header (01) before the file trailer (99) of the file at line ${this.file.line}`,
      );
      this.closeAccount();
      this.group = null;
    }
    this.fileSeen = true;
    const header = readFileHeader(record);
    if (header.problem !== null) this.error(record.lineNumber, header.problem);
    this.file = { line: record.lineNumber, fileId: header.fileId, records: 0, groups: 0, groupTotalsMinor: 0n };
    this.count(record);
  }

  private groupHeader(record: Bai2Record): void {
    if (this.file === null)
      this.error(record.lineNumber, 'group header (02) outside a file: no file header (01) before it');
    if (this.group !== null) {
      this.error(
        record.lineNumber,
        `group header (02) before the group trailer (98) of the group at line ${this.group.line}`,
      );
      this.closeAccount();
    }
    const { context, problem, warning } = readGroupHeader(record);
    if (problem !== null) this.error(record.lineNumber, problem);
    // For the group's first account: the statement held now is the previous group's.
    if (warning !== null) this.pendingWarnings.push(warning);
    this.group = { line: record.lineNumber, context, records: 0, accounts: 0, accountTotalsMinor: 0n };
    if (this.file !== null) this.file.groups += 1;
    this.count(record);
  }

  private accountIdentifier(record: Bai2Record): void {
    this.flushHeld();
    if (this.account !== null) {
      this.error(
        record.lineNumber,
        `account identifier (03) before the account trailer (49) of the account at line ${this.account.line}`,
      );
      this.closeAccount();
      this.flushHeld();
    }
    let identifier: AccountIdentifier | null = null;
    if (this.group === null) {
      this.error(record.lineNumber, 'account identifier (03) outside a group: no group header (02) before it');
    } else if (this.group.context !== null) {
      const read = readAccountIdentifier(record, this.group.context);
      if (read.ok) identifier = read.value;
      else this.error(read.lineNumber, read.reason);
    }
    if (this.group !== null) this.group.accounts += 1;
    const builder = identifier === null ? null : new StatementLineBuilder(this.statementCount++, identifier.accountId);
    this.account = {
      line: record.lineNumber,
      identifier,
      records: 0,
      amountsMinor: identifier?.amountsMinor ?? 0n,
      builder,
      references: new ReferenceOccurrences('bankref'),
    };
    this.count(record);
  }

  private detail(record: Bai2Record): void {
    this.count(record);
    const account = this.account;
    if (account === null)
      return this.error(
        record.lineNumber,
        'transaction detail (16) outside an account: no account identifier (03) before it',
      );
    if (account.identifier === null || account.builder === null || this.group?.context == null) return;
    const read = readDetail(record, account.identifier, this.group.context);
    if (!read.ok) return this.error(read.lineNumber, read.reason);
    account.amountsMinor += read.value.amountMinor;
    if (read.value.draft === null) return;
    let bankId: string | undefined;
    if (read.value.bankReference !== '') {
      const identity = account.references.next(read.value.bankReference);
      if ('error' in identity) return this.error(record.lineNumber, identity.error);
      bankId = identity.externalId;
    }
    const built = account.builder.build(read.value.draft, bankId);
    if (!Array.isArray(built)) this.out.push(built);
    else for (const problem of built) this.error(problem.lineNumber, problem.reason);
  }

  private accountTrailer(record: Bai2Record): void {
    this.count(record);
    const account = this.account;
    if (account === null) return this.error(record.lineNumber, 'account trailer (49) with no account before it');
    const stated = readTrailer(record, 'account');
    if (!stated.ok) this.error(record.lineNumber, stated.reason);
    else {
      const counted = { totalMinor: account.amountsMinor, memberCount: 0, recordCount: account.records };
      if (account.identifier !== null)
        this.warn(...trailerWarnings('account', record.lineNumber, stated.value, counted));
      if (this.group !== null) this.group.accountTotalsMinor += stated.value.controlTotalMinor ?? account.amountsMinor;
    }
    this.closeAccount();
  }

  private groupTrailer(record: Bai2Record): void {
    this.count(record);
    if (this.account !== null) {
      this.error(
        record.lineNumber,
        `group trailer (98) before the account trailer (49) of the account at line ${this.account.line}`,
      );
      this.closeAccount();
    }
    const group = this.group;
    if (group === null) return this.error(record.lineNumber, 'group trailer (98) with no group header (02) before it');
    this.group = null;
    const stated = readTrailer(record, 'group');
    if (!stated.ok) return this.error(record.lineNumber, stated.reason);
    const counted = { totalMinor: group.accountTotalsMinor, memberCount: group.accounts, recordCount: group.records };
    if (group.context !== null) this.warn(...trailerWarnings('group', record.lineNumber, stated.value, counted));
    if (this.file !== null) this.file.groupTotalsMinor += stated.value.controlTotalMinor ?? group.accountTotalsMinor;
  }

  private fileTrailer(record: Bai2Record): void {
    this.count(record);
    if (this.account !== null || this.group !== null) {
      const open = this.account !== null ? 'account trailer (49)' : 'group trailer (98)';
      this.error(record.lineNumber, `file trailer (99) before the ${open} of the records above it`);
      this.closeAccount();
      this.group = null;
    }
    const file = this.file;
    if (file === null) return this.error(record.lineNumber, 'file trailer (99) with no file header (01) before it');
    this.file = null;
    const stated = readTrailer(record, 'file');
    if (!stated.ok) return this.error(record.lineNumber, stated.reason);
    const counted = { totalMinor: file.groupTotalsMinor, memberCount: file.groups, recordCount: file.records };
    this.warn(...trailerWarnings('file', record.lineNumber, stated.value, counted));
  }

  /** Trailer warnings go to the statement last closed: the group's (or file's) last account. */
  private warn(...warnings: string[]): void {
    if (warnings.length === 0) return;
    if (this.held === null) this.pendingWarnings.push(...warnings);
    else this.held.warnings = [...(this.held.warnings ?? []), ...warnings];
  }

  private closeAccount(): void {
    const account = this.account;
    this.account = null;
    if (account === null || account.identifier === null || account.builder === null) return;
    this.flushHeld();
    const { builder, identifier, line: lineNumber } = account;
    const statement = { index: builder.statementIndex, lineNumber, fileId: this.file?.fileId };
    this.held = accountStatement(identifier, statement, builder.lineCount, this.pendingWarnings.splice(0));
  }

  private flushHeld(): void {
    if (this.held !== null) this.out.push(this.held);
    this.held = null;
  }
}

/** BAI2 cash management balance reports (version 2), one physical record at a time. */
export async function* parseBai2(text: AsyncIterable<string>): AsyncGenerator<StatementItem[]> {
  const reader = new Bai2Reader();
  for await (const line of readLines(text, BAI2_LINE_CHARS_MAX)) {
    reader.accept(line);
    const items = reader.drain();
    if (items.length > 0) yield items;
  }
  reader.finish();
  yield reader.drain();
}
