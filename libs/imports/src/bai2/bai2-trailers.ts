import { bai2Amount, bai2Count, type Parsed } from './bai2-fields';
import { type Bai2Record, FieldCursor } from './bai2-records';

/** What a trailer states; null where it leaves a field blank (then there is nothing to check). */
export interface TrailerFigures {
  controlTotalMinor: bigint | null;
  /** 98: accounts in the group; 99: groups in the file; absent for 49. */
  memberCount: number | null;
  recordCount: number | null;
}

export type TrailerKind = 'account' | 'group' | 'file';

const TRAILER_NAMES: Record<TrailerKind, string> = {
  account: 'account trailer (49)',
  group: 'group trailer (98)',
  file: 'file trailer (99)',
};

/** 49: control total, number of records. 98 and 99: control total, accounts or groups, number of records. */
export function readTrailer(record: Bai2Record, kind: TrailerKind): Parsed<TrailerFigures> {
  const cursor = new FieldCursor(record.pieces);
  const name = TRAILER_NAMES[kind];
  const total = bai2Amount(cursor.next().trim(), `control total of the ${name}`, true);
  if (!total.ok) return total;
  const members =
    kind === 'account'
      ? { ok: true as const, value: null }
      : bai2Count(cursor.next().trim(), `number of ${kind === 'group' ? 'accounts' : 'groups'} of the ${name}`);
  if (!members.ok) return members;
  const records = bai2Count(cursor.next().trim(), `number of records of the ${name}`);
  if (!records.ok) return records;
  return {
    ok: true,
    value: { controlTotalMinor: total.value, memberCount: members.value, recordCount: records.value },
  };
}

/** What the records under a trailer add up to, as the reader counted them. */
export interface CountedFigures {
  /** 49: the sum of the account's amounts; 98: of its accounts' control totals; 99: of its groups'. */
  totalMinor: bigint;
  memberCount: number;
  recordCount: number;
}

/**
 * The trailer's figures that do not agree with the records: warnings, not errors. Like a statement whose
 * balances do not add up, the file is what the bank sent; its lines are each read exactly, and the
 * reconciler is where a missing or extra amount shows. A blank figure is not checked.
 */
export function trailerWarnings(
  kind: TrailerKind,
  lineNumber: number,
  stated: TrailerFigures,
  counted: CountedFigures,
): string[] {
  const name = `the ${TRAILER_NAMES[kind]} at line ${lineNumber}`;
  const parts = {
    account: "the account's amounts",
    group: "its accounts' control totals",
    file: "its groups' control totals",
  };
  const warnings: string[] = [];
  if (stated.controlTotalMinor !== null && stated.controlTotalMinor !== counted.totalMinor) {
    warnings.push(
      `${name} gives control total ${stated.controlTotalMinor}, but ${parts[kind]} add up to ${counted.totalMinor}`,
    );
  }
  if (stated.memberCount !== null && stated.memberCount !== counted.memberCount) {
    const members = kind === 'group' ? 'accounts' : 'groups';
    warnings.push(`${name} counts ${stated.memberCount} ${members}, but there are ${counted.memberCount}`);
  }
  if (stated.recordCount !== null && stated.recordCount !== counted.recordCount) {
    warnings.push(`${name} counts ${stated.recordCount} records, but there are ${counted.recordCount}`);
  }
  return warnings;
}
