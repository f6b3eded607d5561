import { Injectable } from '@nestjs/common';
import { Database, type Prisma } from '@ledger/db';
import type { DiscrepancyKind, Severity } from '../domain/finding';
import {
  APPEND_EVENTS,
  COUNT_TICKETS,
  INSERT_TICKETS,
  LOCK_FOR_SYNC,
  LOCK_TICKET,
  LOCK_TICKETS,
  type TicketRow,
  UPDATE_TICKETS,
  WORK_TICKETS,
} from './tickets.sql';
import type { Ticket, TicketCounts, TicketEvent, TicketEventView, TicketStatus } from './ticket.views';

/** Tickets or events written by one statement; a run's findings are bounded, this bounds each statement. */
export const TICKETS_PER_STATEMENT_MAX = 5_000;
/** History entries shown per ticket. */
export const TICKET_HISTORY_MAX = 1_000;

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

const WORKING: TicketStatus[] = ['open', 'acknowledged'];

function fromRow(row: TicketRow): Ticket {
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
    version: row.version,
  };
}

function fromModel({ tenantId: _tenantId, ...row }: Prisma.DiscrepancyModel): Ticket {
  return {
    ...row,
    kind: row.kind as DiscrepancyKind,
    severity: row.severity as Severity,
    status: row.status as TicketStatus,
    evidence: row.evidence as Record<string, unknown>,
  };
}

/** The queue's filters as Prisma conditions; all optional. */
function queueWhere(tenantId: string, filter: TicketFilter, now: Date): Prisma.DiscrepancyWhereInput {
  const overdue: Prisma.DiscrepancyWhereInput = { dueAt: { lt: now }, status: { in: WORKING } };
  const min = filter.minAmountMinor;
  return {
    tenantId,
    ...(filter.status === undefined ? {} : { status: filter.status }),
    ...(filter.owner === undefined ? {} : { owner: filter.owner }),
    ...(filter.kind === undefined ? {} : { kind: filter.kind }),
    ...(filter.openedBefore === undefined ? {} : { openedAt: { lt: filter.openedBefore } }),
    ...(filter.beforeId === undefined ? {} : { id: { lt: filter.beforeId } }),
    AND: [
      filter.overdue === undefined ? {} : filter.overdue ? overdue : { NOT: overdue },
      // |amount| >= min, as two index-friendly ranges.
      min === undefined ? {} : { OR: [{ amountMinor: { gte: min } }, { amountMinor: { lte: -min } }] },
    ],
  };
}

/**
 * Discrepancy tickets: a run's sync in SQL (many tickets per statement, and the row lock a person's
 * change takes), the queue's reads with Prisma Client. Everything runs in the current transaction.
 */
@Injectable()
export class TicketRepository {
  constructor(private readonly db: Database) {}

  /**
   * The tickets a run's sync may change (the ones its findings name, and the ones of its kinds still being
   * worked), locked in id order until the current transaction ends, as they are now.
   */
  async lockForSync(
    tenantId: string,
    fingerprints: readonly string[],
    kinds: readonly DiscrepancyKind[],
    openLimit: number,
  ): Promise<Ticket[]> {
    return (await this.db.query(LOCK_FOR_SYNC, { tenantId, fingerprints, kinds, openLimit })).map(fromRow);
  }

  async insert(tenantId: string, tickets: readonly Ticket[]): Promise<void> {
    for (const slice of slices(tickets)) {
      await this.db.query(INSERT_TICKETS, {
        tenantId,
        ids: slice.map((ticket) => ticket.id),
        fingerprints: slice.map((ticket) => ticket.fingerprint),
        kinds: slice.map((ticket) => ticket.kind),
        severities: slice.map((ticket) => ticket.severity),
        owners: slice.map((ticket) => ticket.owner),
        summaries: slice.map((ticket) => ticket.summary),
        amountsMinor: slice.map((ticket) => ticket.amountMinor),
        currencies: slice.map((ticket) => ticket.currency),
        accountCodes: slice.map((ticket) => ticket.accountCode),
        sources: slice.map((ticket) => ticket.source),
        evidences: slice.map((ticket) => JSON.stringify(ticket.evidence)),
        openedAts: slice.map((ticket) => ticket.openedAt),
        dueAts: slice.map((ticket) => ticket.dueAt),
        lastSeenRunIds: slice.map((ticket) => ticket.lastSeenRunId),
      });
    }
  }

  /** Writes what a run owns of each ticket (never its owner); a null lastSeenRunId keeps the stored one. */
  async update(tenantId: string, tickets: readonly Ticket[]): Promise<void> {
    for (const slice of slices(tickets)) {
      await this.db.query(UPDATE_TICKETS, {
        tenantId,
        ids: slice.map((ticket) => ticket.id),
        statuses: slice.map((ticket) => ticket.status),
        summaries: slice.map((ticket) => ticket.summary),
        amountsMinor: slice.map((ticket) => ticket.amountMinor),
        currencies: slice.map((ticket) => ticket.currency),
        evidences: slice.map((ticket) => JSON.stringify(ticket.evidence)),
        resolvedAts: slice.map((ticket) => ticket.resolvedAt),
        lastSeenRunIds: slice.map((ticket) => ticket.lastSeenRunId),
        dueAts: slice.map((ticket) => ticket.dueAt),
      });
    }
  }

  async appendEvents(tenantId: string, events: readonly TicketEvent[]): Promise<void> {
    for (const slice of slices(events)) {
      await this.db.query(APPEND_EVENTS, {
        tenantId,
        ticketIds: slice.map((event) => event.ticketId),
        actors: slice.map((event) => event.actor),
        actions: slice.map((event) => event.action),
        notes: slice.map((event) => event.note ?? null),
        changes: slice.map((event) => JSON.stringify(event.changes ?? {})),
      });
    }
  }

  /** A person's change of a ticket locked by `lock`: its owner and status; answers its new version. */
  async work(tenantId: string, ticket: Ticket): Promise<{ version: number; updatedAt: Date }> {
    return (await this.workMany(tenantId, [ticket])).get(ticket.id)!;
  }

  /** People's changes of tickets locked by `lock` or `lockMany`; answers each one's new version by id. */
  async workMany(
    tenantId: string,
    tickets: readonly Ticket[],
  ): Promise<Map<string, { version: number; updatedAt: Date }>> {
    const worked = new Map<string, { version: number; updatedAt: Date }>();
    for (const slice of slices(tickets)) {
      const rows = await this.db.query(WORK_TICKETS, {
        tenantId,
        ids: slice.map((ticket) => ticket.id),
        owners: slice.map((ticket) => ticket.owner),
        statuses: slice.map((ticket) => ticket.status),
        resolvedAts: slice.map((ticket) => ticket.resolvedAt),
        dueAts: slice.map((ticket) => ticket.dueAt),
      });
      for (const row of rows) worked.set(row.id, { version: row.version, updatedAt: row.updated_at });
    }
    return worked;
  }

  /** The tenant's tickets among `ids` (lower-case), locked in id order until the current transaction ends. */
  async lockMany(tenantId: string, ids: readonly string[]): Promise<Ticket[]> {
    return (await this.db.query(LOCK_TICKETS, { tenantId, ids })).map(fromRow);
  }

  /** The ticket, locked until the current transaction ends. */
  async lock(tenantId: string, id: string): Promise<Ticket | undefined> {
    const row = (await this.db.query(LOCK_TICKET, { tenantId, id }))[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async find(tenantId: string, id: string): Promise<Ticket | undefined> {
    const row = await this.db.prisma.discrepancy.findUnique({ where: { tenantId_id: { tenantId, id } } });
    return row === null ? undefined : fromModel(row);
  }

  async history(tenantId: string, id: string): Promise<TicketEventView[]> {
    const rows = await this.db.prisma.discrepancyEvent.findMany({
      where: { tenantId, discrepancyId: id },
      orderBy: { seq: 'asc' },
      take: TICKET_HISTORY_MAX,
      select: { seq: true, at: true, actor: true, action: true, note: true, changes: true },
    });
    return rows.map((row) => ({
      ...row,
      at: row.at.toISOString(),
      changes: row.changes as Record<string, unknown>,
    }));
  }

  /** The queue, newest first (ids are time-ordered), from just below the filter's `beforeId`. */
  async list(tenantId: string, filter: TicketFilter, take: number): Promise<Ticket[]> {
    const rows = await this.db.prisma.discrepancy.findMany({
      where: queueWhere(tenantId, filter, new Date()),
      orderBy: { id: 'desc' },
      take,
    });
    return rows.map(fromModel);
  }

  async countByStatus(tenantId: string): Promise<TicketCounts> {
    const rows = await this.db.query(COUNT_TICKETS, { tenantId });
    const byStatus: Record<TicketStatus, number> = { open: 0, acknowledged: 0, resolved: 0, ignored: 0 };
    for (const row of rows) byStatus[row.status] = row.tickets;
    return {
      byStatus,
      overdue: rows.reduce((sum, row) => sum + row.overdue, 0),
      total: rows.reduce((sum, row) => sum + row.tickets, 0),
    };
  }

  /** Tickets still being worked, by kind, across tenants, for the metrics. */
  async workingByKind(): Promise<Record<string, number>> {
    const groups = await this.db.prisma.discrepancy.groupBy({
      by: ['kind'],
      where: { status: { in: WORKING } },
      _count: { _all: true },
    });
    return Object.fromEntries(groups.map((group) => [group.kind, group._count._all]));
  }
}
