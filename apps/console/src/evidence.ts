// What a ticket's evidence points at, whatever its kind: statement lines on one side, ledger
// transactions on the other. Pure functions of the evidence object the API stores with the ticket.
import { link } from './router';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_PREFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** Lines and transactions fetched to show a ticket; a group ticket may list many more. */
export const EVIDENCE_MEMBERS_MAX = 10;

const STATEMENT_KEYS = /^(statement|bookedOn|references|twin|reference$|field$)/;
const LEDGER_KEYS = /^(transaction|candidateTransaction|ledger|entries|leg$|effectiveOn|hold)/;

export type EvidenceSide = 'statement' | 'ledger' | 'check';

export function evidenceSide(key: string): EvidenceSide {
  if (STATEMENT_KEYS.test(key)) return 'statement';
  if (LEDGER_KEYS.test(key)) return 'ledger';
  return 'check';
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Statement line ids, the line first and any twin after it (at most EVIDENCE_MEMBERS_MAX). */
export function statementLineIds(evidence: Record<string, unknown>): string[] {
  const ids = [
    ...strings(evidence.statementLineId),
    ...strings(evidence.statementLineIds),
    ...strings(evidence.twinStatementLineId),
  ];
  return [...new Set(ids)].slice(0, EVIDENCE_MEMBERS_MAX);
}

/** Transaction ids: named directly, as candidates, or as group members written `<transaction id>:<leg>`. */
export function transactionIds(evidence: Record<string, unknown>): string[] {
  const named = [
    ...strings(evidence.transactionId),
    ...strings(evidence.candidateTransactionIds),
    ...strings(evidence.entries),
  ];
  const ids = named.flatMap((text) => UUID_PREFIX.exec(text)?.[0] ?? []);
  return [...new Set(ids)].slice(0, EVIDENCE_MEMBERS_MAX);
}

/** A value as one readable line: strings as they are, anything else as compact JSON. */
export function evidenceText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

/** Evidence fields that name something the console has a page for, and the path of that page. */
const LINKED_KEYS: Readonly<Record<string, string>> = { paymentOrderId: '/payments' };

/** The console link for an evidence value (`paymentOrderId` -> the order's page); none for anything else. */
export function evidenceLink(key: string, value: unknown): string | undefined {
  const path = Object.hasOwn(LINKED_KEYS, key) ? LINKED_KEYS[key] : undefined;
  return path !== undefined && typeof value === 'string' && UUID.test(value) ? link(path, value) : undefined;
}
