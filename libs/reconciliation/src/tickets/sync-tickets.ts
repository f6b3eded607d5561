import { Injectable } from '@nestjs/common';
import { canonicalJson, newId } from '@ledger/ids';
import { type NewEvent } from '@ledger/outbox';
import { type DiscrepancyKind, type Finding, KIND_POLICY, dueAt, reopensWhenIgnored } from '../domain/finding';
import { ownerFor } from '../domain/routing';
import { RECONCILER_ACTOR } from '../run.repository';
import { OwnerRouteRepository } from './owner-route.repository';
import { TicketRepository } from './ticket.repository';
import { type Ticket, type TicketEvent, ticketView } from './ticket.views';

/** Tickets a run looks at when auto-resolving; a tenant with more is far past what a queue can hold. */
export const OPEN_TICKETS_PER_RUN_MAX = 10_000;
const RECONCILER = RECONCILER_ACTOR;

export interface SyncStats {
  findings: number;
  opened: number;
  updated: number;
  reopened: number;
  resolved: number;
}

function changed(ticket: Ticket, finding: Finding): boolean {
  return (
    ticket.summary !== finding.summary ||
    ticket.amountMinor !== finding.amountMinor ||
    canonicalJson(ticket.evidence) !== canonicalJson(finding.evidence)
  );
}

/**
 * Turns a run's findings into tickets: a new cause opens one, a known one is updated (or reopened if
 * it had been resolved), and a ticket of a checked kind whose cause is gone is resolved with a note. The
 * fingerprint makes reruns idempotent: a second run with the same findings changes nothing. The tickets
 * it may change are locked first (one statement, in id order), so a person's change committed meanwhile
 * is waited for and decided on, never written over; then decided in memory and written in a few
 * statements (new tickets, what a run owns of the changed ones, their history).
 */
@Injectable()
export class SyncTickets {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly routes: OwnerRouteRepository,
  ) {}

  /** In the caller's transaction: the tickets change with the run's record and its events. */
  async execute(
    tenantId: string,
    runId: string,
    checkedKinds: readonly DiscrepancyKind[],
    findings: readonly Finding[],
    now: Date,
  ) {
    const stats: SyncStats = { findings: findings.length, opened: 0, updated: 0, reopened: 0, resolved: 0 };
    const events: NewEvent[] = [];
    const inserts: Ticket[] = [];
    const updates: Ticket[] = [];
    const history: TicketEvent[] = [];
    const byFingerprint = new Map(findings.map((finding) => [finding.fingerprint, finding]));
    const locked = await this.tickets.lockForSync(
      tenantId,
      [...byFingerprint.keys()],
      checkedKinds,
      OPEN_TICKETS_PER_RUN_MAX,
    );
    const existing = new Map(locked.map((ticket) => [ticket.fingerprint, ticket]));
    const routes = await this.routes.list(tenantId);
    const emit = (type: NewEvent['type'], ticket: Ticket) =>
      events.push({
        type,
        aggregateType: 'discrepancy',
        aggregateId: ticket.id,
        aggregateVersion: BigInt(now.getTime()),
        data: { discrepancy: ticketView(ticket, now) },
      });

    for (const finding of byFingerprint.values()) {
      const ticket = existing.get(finding.fingerprint);
      if (ticket === undefined) {
        const opened: Ticket = {
          ...finding,
          id: newId(now.getTime()),
          severity: KIND_POLICY[finding.kind].severity,
          status: 'open',
          owner: ownerFor(finding, routes),
          openedAt: now,
          dueAt: dueAt(finding.kind, now),
          resolvedAt: null,
          lastSeenRunId: runId,
          updatedAt: now,
          version: 1,
        };
        inserts.push(opened);
        history.push({
          ticketId: opened.id,
          actor: RECONCILER,
          action: 'opened',
          note: finding.summary,
          changes: { owner: opened.owner },
        });
        emit('discrepancy.opened', opened);
        stats.opened++;
        continue;
      }
      const next: Ticket = {
        ...ticket,
        summary: finding.summary,
        amountMinor: finding.amountMinor,
        currency: finding.currency,
        evidence: finding.evidence,
        lastSeenRunId: runId,
        updatedAt: now,
        version: ticket.version + 1,
      };
      const silenced = ticket.status === 'ignored' && reopensWhenIgnored(ticket.kind);
      if (ticket.status === 'resolved' || silenced) {
        Object.assign(next, { status: 'open', resolvedAt: null, dueAt: dueAt(finding.kind, now) });
        updates.push(next);
        history.push({
          ticketId: ticket.id,
          actor: RECONCILER,
          action: 'reopened',
          note: silenced
            ? `a ${ticket.kind} cannot stay ignored: its cause is still there (run ${runId})`
            : `the cause is back (run ${runId})`,
          changes: { status: 'open' },
        });
        emit('discrepancy.updated', next);
        stats.reopened++;
      } else if (ticket.status !== 'ignored' && changed(ticket, finding)) {
        updates.push(next);
        history.push({
          ticketId: ticket.id,
          actor: RECONCILER,
          action: 'updated',
          changes: { amount: finding.amountMinor?.toString() ?? null, summary: finding.summary },
        });
        emit('discrepancy.updated', next);
        stats.updated++;
      } else {
        // Seen again, unchanged (or ignored by a person): only the run that saw it is recorded.
        updates.push({ ...ticket, lastSeenRunId: runId });
      }
    }

    for (const ticket of locked) {
      if (byFingerprint.has(ticket.fingerprint)) continue;
      const resolved: Ticket = {
        ...ticket,
        status: 'resolved',
        resolvedAt: now,
        updatedAt: now,
        lastSeenRunId: ticket.lastSeenRunId,
        version: ticket.version + 1,
      };
      updates.push(resolved);
      history.push({
        ticketId: ticket.id,
        actor: RECONCILER,
        action: 'auto_resolved',
        note: `cause no longer found by run ${runId}`,
        changes: { status: 'resolved' },
      });
      emit('discrepancy.resolved', resolved);
      stats.resolved++;
    }
    await this.tickets.insert(tenantId, inserts);
    await this.tickets.update(tenantId, updates);
    await this.tickets.appendEvents(tenantId, history);
    return { stats, events };
  }
}
