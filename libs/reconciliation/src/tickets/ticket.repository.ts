import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import type { DiscrepancyKind, Finding, Severity } from '../domain/finding';
import type { OwnerRoute } from '../domain/routing';
import {
  APPEND_EVENTS,
  COUNT_TICKETS,
  FIND_BY_FINGERPRINTS,
  FIND_TICKET,
  HISTORY,
  INSERT_ROUTE,
  INSERT_TICKETS,
  LIST_ROUTES,
  LIST_TICKETS,
  LOCK_TICKET,
  OPEN_OF_KINDS,
  UPDATE_TICKETS,
} from './tickets.sql';
import type { TicketCounts, TicketEventView, TicketStatus, TicketView } from './ticket.views';

interface TicketRow {
  id: string;
  fingerprint: string;
  kind: DiscrepancyKind;
  severity: Severity;
  status: TicketStatus;
  owner: string;
  summary: string;
  amount_minor: bigint | null;
  currency: string | null;
  account_code: string | null;
  source: string | null;
  evidence: Record<string, unknown>;
  opened_at: Date;
  updated_at: Date;
  due_at: Date;
  resolved_at: Date | null;
  last_seen_run_id: string | null;
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
}

/** One entry of a ticket's history. */
export interface TicketEvent {
  ticketId: string;
  actor: string;
  action: string;
  note?: string;
  changes?: Record<string, unknown>;
}

/** Tickets or events written by one statement; a run's findings are bounded, this bounds each statement. */
export const TICKETS_PER_STATEMENT_MAX = 5_000;

function* slices<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += TICKETS_PER_STATEMENT_MAX)
    yield items.slice(start, start + TICKETS_PER_STATEMENT_MAX);
}

export interface TicketFilter {
  status?: TicketStatus;
  owner?: string;
  kind?: DiscrepancyKind;
  overdue?: boolean;
  minAmountMinor?: bigint;
  openedBefore?: Date;
  beforeId?: string;
}

function toTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    kind: row.kind,
    severity: row.severity,
    status: row.status,
    owner: row.owner,
    summary: row.summary,
    amountMinor: row.amount_minor,
    currency: row.currency,
    accountCode: row.account_code,
    source: row.source,
    evidence: row.evidence,
    openedAt: row.opened_at,
    dueAt: row.due_at,
    resolvedAt: row.resolved_at,
    lastSeenRunId: row.last_seen_run_id,
    updatedAt: row.updated_at,
  };
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
  };
}

@Injectable()
export class TicketRepository {
  constructor(private readonly db: Database) {}

  async findByFingerprints(tx: SqlExecutor, tenantId: string, fingerprints: readonly string[]): Promise<Ticket[]> {
    if (fingerprints.length === 0) return [];
    return (await tx.query<TicketRow>(FIND_BY_FINGERPRINTS, [tenantId, fingerprints])).map(toTicket);
  }

  async openOfKinds(
    tx: SqlExecutor,
    tenantId: string,
    kinds: readonly DiscrepancyKind[],
    limit: number,
  ): Promise<Ticket[]> {
    return (await tx.query<TicketRow>(OPEN_OF_KINDS, [tenantId, kinds, limit])).map(toTicket);
  }

  async insert(tx: SqlExecutor, tenantId: string, tickets: readonly Ticket[]): Promise<void> {
    for (const slice of slices(tickets)) {
      await tx.query(INSERT_TICKETS, [
        tenantId,
        slice.map((ticket) => ticket.id),
        slice.map((ticket) => ticket.fingerprint),
        slice.map((ticket) => ticket.kind),
        slice.map((ticket) => ticket.severity),
        slice.map((ticket) => ticket.owner),
        slice.map((ticket) => ticket.summary),
        slice.map((ticket) => ticket.amountMinor),
        slice.map((ticket) => ticket.currency),
        slice.map((ticket) => ticket.accountCode),
        slice.map((ticket) => ticket.source),
        slice.map((ticket) => JSON.stringify(ticket.evidence)),
        slice.map((ticket) => ticket.openedAt),
        slice.map((ticket) => ticket.dueAt),
        slice.map((ticket) => ticket.lastSeenRunId),
      ]);
    }
  }

  /** Writes each ticket's working state; a null lastSeenRunId keeps the stored one. */
  async update(tx: SqlExecutor, tenantId: string, tickets: readonly Ticket[]): Promise<void> {
    for (const slice of slices(tickets)) {
      await tx.query(UPDATE_TICKETS, [
        tenantId,
        slice.map((ticket) => ticket.id),
        slice.map((ticket) => ticket.status),
        slice.map((ticket) => ticket.owner),
        slice.map((ticket) => ticket.summary),
        slice.map((ticket) => ticket.amountMinor),
        slice.map((ticket) => ticket.currency),
        slice.map((ticket) => JSON.stringify(ticket.evidence)),
        slice.map((ticket) => ticket.resolvedAt),
        slice.map((ticket) => ticket.lastSeenRunId),
        slice.map((ticket) => ticket.dueAt),
      ]);
    }
  }

  async appendEvents(tx: SqlExecutor, tenantId: string, events: readonly TicketEvent[]): Promise<void> {
    for (const slice of slices(events)) {
      await tx.query(APPEND_EVENTS, [
        tenantId,
        slice.map((event) => event.ticketId),
        slice.map((event) => event.actor),
        slice.map((event) => event.action),
        slice.map((event) => event.note ?? null),
        slice.map((event) => JSON.stringify(event.changes ?? {})),
      ]);
    }
  }

  async find(tenantId: string, id: string): Promise<Ticket | undefined> {
    const row = (await this.db.executor.query<TicketRow>(FIND_TICKET, [tenantId, id]))[0];
    return row === undefined ? undefined : toTicket(row);
  }

  async lock(tx: SqlExecutor, tenantId: string, id: string): Promise<Ticket | undefined> {
    const row = (await tx.query<TicketRow>(LOCK_TICKET, [tenantId, id]))[0];
    return row === undefined ? undefined : toTicket(row);
  }

  async history(tenantId: string, id: string): Promise<TicketEventView[]> {
    const rows = await this.db.executor.query<{
      seq: number;
      at: Date;
      actor: string;
      action: string;
      note: string | null;
      changes: Record<string, unknown>;
    }>(HISTORY, [tenantId, id]);
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }

  async list(tenantId: string, filter: TicketFilter, take: number): Promise<Ticket[]> {
    const rows = await this.db.executor.query<TicketRow>(LIST_TICKETS, [
      tenantId,
      filter.status ?? null,
      filter.owner ?? null,
      filter.kind ?? null,
      filter.overdue ?? null,
      filter.minAmountMinor ?? null,
      filter.openedBefore ?? null,
      filter.beforeId ?? null,
      take,
    ]);
    return rows.map(toTicket);
  }

  async countByStatus(tenantId: string): Promise<TicketCounts> {
    const rows = await this.db.executor.query<{ status: TicketStatus; tickets: number; overdue: number }>(
      COUNT_TICKETS,
      [tenantId],
    );
    const byStatus: Record<TicketStatus, number> = { open: 0, acknowledged: 0, resolved: 0, ignored: 0 };
    for (const row of rows) byStatus[row.status] = row.tickets;
    return {
      byStatus,
      overdue: rows.reduce((sum, row) => sum + row.overdue, 0),
      total: rows.reduce((sum, row) => sum + row.tickets, 0),
    };
  }

  async routes(tx: SqlExecutor, tenantId: string): Promise<OwnerRoute[]> {
    const rows = await tx.query<{
      priority: number;
      kind: OwnerRoute['kind'];
      source: string | null;
      account_prefix: string | null;
      min_amount_minor: bigint | null;
      owner: string;
    }>(LIST_ROUTES, [tenantId]);
    return rows.map((row) => ({
      priority: row.priority,
      kind: row.kind,
      source: row.source,
      accountPrefix: row.account_prefix,
      minAmountMinor: row.min_amount_minor,
      owner: row.owner,
    }));
  }

  async insertRoute(tx: SqlExecutor, tenantId: string, id: string, route: OwnerRoute): Promise<void> {
    await tx.query(INSERT_ROUTE, [
      tenantId,
      id,
      route.priority,
      route.kind,
      route.source,
      route.accountPrefix,
      route.minAmountMinor,
      route.owner,
    ]);
  }
}
