import type { DiscrepancyKind, Severity } from '../domain/finding';

export type TicketStatus = 'open' | 'acknowledged' | 'resolved' | 'ignored';

export interface TicketView {
  id: string;
  fingerprint: string;
  kind: DiscrepancyKind;
  severity: Severity;
  status: TicketStatus;
  owner: string;
  summary: string;
  amount: string | null;
  currency: string | null;
  accountCode: string | null;
  source: string | null;
  evidence: Record<string, unknown>;
  openedAt: string;
  updatedAt: string;
  dueAt: string;
  /** Past due and still being worked. */
  overdue: boolean;
  /** Whole hours since it was opened. */
  ageHours: number;
  resolvedAt: string | null;
  lastSeenRunId: string | null;
}

export interface TicketEventView {
  seq: number;
  at: string;
  actor: string;
  action: string;
  note: string | null;
  changes: Record<string, unknown>;
}

/** The queue's headline: tickets per status, and how many being worked are past due. */
export interface TicketCounts {
  byStatus: Record<TicketStatus, number>;
  overdue: number;
  total: number;
}
