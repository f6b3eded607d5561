import { currencyCode } from '../amounts';
import { shown } from '../text-input';
import type { GroupContext } from './bai2-account';
import { bai2Date } from './bai2-fields';
import { type Bai2Record, FieldCursor } from './bai2-records';

/** BAI2 currency when a group names none. */
const DEFAULT_CURRENCY = 'USD';
/** Group statuses other than 1 (update): a file of them is still read, with a warning. */
const GROUP_STATUSES: Readonly<Record<string, string>> = { '2': 'deletion', '3': 'correction', '4': 'test only' };

export interface FileHeader {
  fileId: string | null;
  /** Why the header cannot be read, if it cannot. */
  problem: string | null;
}

/** 01: sender, receiver, creation date and time, file id, record length, block size, version (must be 2). */
export function readFileHeader(record: Bai2Record): FileHeader {
  const cursor = new FieldCursor(record.pieces);
  const [, , , , fileId, , , version] = Array.from({ length: 8 }, () => cursor.next().trim());
  return {
    fileId: fileId === '' ? null : fileId,
    problem: version === '2' ? null : `file header (01) gives version ${shown(version)}; only BAI version 2 is read`,
  };
}

export interface GroupHeader {
  /** Null when the group cannot be read: its accounts are then skipped. */
  context: GroupContext | null;
  problem: string | null;
  warning: string | null;
}

/** 02: receiver, originator, group status, as-of date, as-of time, currency, as-of date modifier. */
export function readGroupHeader(record: Bai2Record): GroupHeader {
  const cursor = new FieldCursor(record.pieces);
  const [, , status, asOfText, , currencyText] = Array.from({ length: 6 }, () => cursor.next().trim());
  const named = GROUP_STATUSES[status];
  const warning = named === undefined ? null : `the group at line ${record.lineNumber} has status ${status} (${named})`;
  const asOf = bai2Date(asOfText, 'as-of date');
  if (!asOf.ok) return { context: null, problem: asOf.reason, warning };
  const currency = currencyText === '' ? { ok: true as const, value: DEFAULT_CURRENCY } : currencyCode(currencyText);
  if (!currency.ok) return { context: null, problem: currency.reason, warning };
  return { context: { asOf: asOf.value, currency: currency.value }, problem: null, warning };
}
