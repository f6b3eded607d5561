import type { DiscrepancyKind, Finding, Severity } from '../domain/finding';

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
  /** Bumped by every change, by a person or a run: `If-Match` on a change names the version it was made to. */
  version: number;
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

/** A ticket as stored: the finding that opened it (kept current), and how it is being worked. */
export interface Ticket extends Finding {
  id: string;
  severity: Severity;
  status: TicketStatus;
  owner: string;
  openedAt: Date;
  dueAt: Date;
  resolvedAt: Date | null;
  lastSeenRunId: string | null;
  updatedAt: Date;
  version: number;
}

/** One entry of a ticket's history. */
export interface TicketEvent {
  ticketId: string;
  actor: string;
  action: string;
  note?: string;
  changes?: Record<string, unknown>;
}

export function ticketView(ticket: Ticket, now = new Date()): TicketView {
  const working = ticket.status === 'open' || ticket.status === 'acknowledged';
  return {
    id: ticket.id,
    fingerprint: ticket.fingerprint,
    kind: ticket.kind,
    severity: ticket.severity,
    status: ticket.status,
    owner: ticket.owner,
    summary: ticket.summary,
    amount: ticket.amountMinor?.toString() ?? null,
    currency: ticket.currency,
    accountCode: ticket.accountCode,
    source: ticket.source,
    evidence: ticket.evidence,
    openedAt: ticket.openedAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    dueAt: ticket.dueAt.toISOString(),
    overdue: working && ticket.dueAt.getTime() < now.getTime(),
    ageHours: Math.floor((now.getTime() - ticket.openedAt.getTime()) / 3_600_000),
    resolvedAt: ticket.resolvedAt?.toISOString() ?? null,
    lastSeenRunId: ticket.lastSeenRunId,
    version: ticket.version,
  };
}
