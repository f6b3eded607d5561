// The shapes of the API answers the console reads, as /docs describes them. The console speaks only HTTP,
// so it states what it relies on here rather than importing the server's libraries.

export const TICKET_STATUSES = ['open', 'acknowledged', 'resolved', 'ignored'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const DISCREPANCY_KINDS = [
  'missing_in_ledger',
  'missing_in_statement',
  'amount_mismatch',
  'duplicate',
  'currency_mismatch',
  'ambiguous_match',
  'invariant_violation',
  'stale_hold',
  'balance_continuity',
] as const;

export interface Ticket {
  id: string;
  kind: string;
  severity: string;
  status: TicketStatus;
  owner: string;
  summary: string;
  amount: string | null;
  currency: string | null;
  accountCode: string | null;
  source: string | null;
  evidence: Record<string, unknown>;
  openedAt: string;
  dueAt: string;
  overdue: boolean;
  ageHours: number;
  resolvedAt: string | null;
}

export interface TicketEvent {
  seq: number;
  at: string;
  actor: string;
  action: string;
  note: string | null;
  changes: Record<string, unknown>;
}

export interface TicketCounts {
  byStatus: Record<TicketStatus, number>;
  overdue: number;
  total: number;
}

export interface Match {
  id: string;
  rule: string;
  evidence: Record<string, unknown>;
  statementLines: { id: string; amount: string; currency: string; bookedOn: string }[];
  entries: { transactionId: string; leg: number; direction: string; amount: string; currency: string }[];
  createdBy: string;
  createdAt: string;
  confirmedBy: string | null;
  undoneBy: string | null;
  note: string | null;
}

export interface Transaction {
  id: string;
  status: string;
  externalRef: string | null;
  description: string | null;
  effectiveAt: string;
  entries: { leg: number; accountCode: string; direction: string; amount: string; currency: string }[];
}

export interface Source {
  name: string;
  format: string | null;
  account: string;
  currency: string;
}

export interface StatementImport {
  id: string;
  source: string;
  format: string;
  fileName: string | null;
  lines: number;
  duplicates: number;
  warnings: string[];
  createdAt: string;
}

export interface StatementLine {
  id: string;
  /** Set when the line is read on its own (GET /v1/statement-lines/:id). */
  importId?: string;
  lineNumber: number;
  bookedOn: string;
  amount: string;
  currency: string;
  references: Record<string, string>;
  description: string;
}

export interface Run {
  id: string;
  trigger: string;
  status: string;
  startedAt: string;
  durationMs: number | null;
  stats: Record<string, unknown>;
  error: string | null;
}

export interface Account {
  id: string;
  code: string;
  name: string | null;
  currency: string;
  normalBalance: string;
  balances: { posted: string; pending: string; available: string };
}

export interface AccountEntry {
  transactionId: string;
  leg: number;
  direction: string;
  pending: boolean;
  amount: string;
  currency: string;
  postedBalance: string;
  effectiveAt: string;
}
