import { DomainError } from '@ledger/errors';
import type { Ticket, TicketStatus } from './ticket.views';

/** What a person may change of a ticket in one go: its owner, its status, a note for the history. */
export interface TicketChange {
  owner?: string;
  status?: 'acknowledged' | 'resolved' | 'ignored';
  note?: string;
}

/** One history entry a change makes, before it is numbered. */
export interface TicketAction {
  action: string;
  changes: Record<string, unknown>;
}

/** A ticket before and after a person's change, with the history entries it leaves (the note on the first). */
export interface PlannedChange {
  before: Ticket;
  next: Ticket;
  actions: TicketAction[];
  note?: string;
}

/** Which status a person may move a ticket to from each status (reopening is its own change). */
const ALLOWED: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ['acknowledged', 'resolved', 'ignored'],
  acknowledged: ['resolved', 'ignored'],
  resolved: [],
  ignored: [],
};

/** Resolving and ignoring say why: refused before anything is read. */
export function assertNoteForClosing(change: TicketChange): void {
  if ((change.status === 'resolved' || change.status === 'ignored') && !change.note?.trim()) {
    throw new DomainError('VALIDATION_FAILED', `a ticket is ${change.status} only with a note saying why`, {
      fields: [{ path: 'note', message: 'required' }],
    });
  }
}

/** `If-Match`: a ticket changed since the version the person read is refused, never written over. */
export function assertVersion(ticket: Ticket, expectedVersion: number | undefined): void {
  if (expectedVersion === undefined || expectedVersion === ticket.version) return;
  throw new DomainError(
    'STALE_VERSION',
    `discrepancy ${ticket.id} is at version ${ticket.version}, not ${expectedVersion}: it changed since; read it again`,
    { version: ticket.version },
  );
}

/**
 * What a change makes of a ticket: the ticket after it, and its history entries; none when it changes
 * nothing (the same owner, the same status, no note). A status the ticket cannot reach is refused.
 */
export function planTicketChange(ticket: Ticket, change: TicketChange, now: Date): PlannedChange {
  const next: Ticket = { ...ticket, updatedAt: now };
  const actions: TicketAction[] = [];
  if (change.owner !== undefined && change.owner !== ticket.owner) {
    next.owner = change.owner;
    actions.push({ action: 'assigned', changes: { owner: { from: ticket.owner, to: change.owner } } });
  }
  if (change.status !== undefined && change.status !== ticket.status) {
    if (!ALLOWED[ticket.status].includes(change.status)) {
      throw new DomainError('VALIDATION_FAILED', `a ${ticket.status} ticket cannot become ${change.status}`, {
        fields: [{ path: 'status', message: 'not allowed from the current status' }],
      });
    }
    next.status = change.status;
    if (change.status === 'resolved' || change.status === 'ignored') next.resolvedAt = now;
    actions.push({ action: change.status, changes: { status: { from: ticket.status, to: change.status } } });
  }
  if (actions.length === 0 && change.note) actions.push({ action: 'noted', changes: {} });
  return { before: ticket, next, actions, note: change.note };
}
