import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { assertNoteForClosing, type PlannedChange, planTicketChange, type TicketChange } from './ticket-change';
import { TicketChanges } from './ticket-changes';
import { TicketRepository } from './ticket.repository';
import { type Ticket, type TicketView, ticketView } from './ticket.views';

/** Tickets one bulk change may name. */
export const BULK_TICKETS_MAX = 500;

export interface BulkUpdateDiscrepanciesCommand extends TicketChange {
  tenantId: string;
  actor: string;
  /** Distinct ticket ids, at most BULK_TICKETS_MAX. */
  ids: readonly string[];
}

export type BulkOutcome = 'updated' | 'not_found' | 'unchanged' | 'refused';

export interface BulkResult {
  id: string;
  outcome: BulkOutcome;
  ticket?: TicketView;
  error?: { code: string; message: string };
}

type Decision = { result: BulkResult; planned?: PlannedChange };

function decide(id: string, ticket: Ticket | undefined, change: TicketChange, now: Date): Decision {
  if (ticket === undefined) {
    return {
      result: { id, outcome: 'not_found', error: { code: 'NOT_FOUND', message: `discrepancy ${id} not found` } },
    };
  }
  let planned: PlannedChange;
  try {
    planned = planTicketChange(ticket, change, now);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const refusal = { code: error.code, message: error.message };
    return { result: { id, outcome: 'refused', ticket: ticketView(ticket, now), error: refusal } };
  }
  if (planned.actions.length === 0) return { result: { id, outcome: 'unchanged', ticket: ticketView(ticket, now) } };
  return { result: { id, outcome: 'updated' }, planned };
}

/**
 * One change (owner, status, note) made to many tickets in one transaction: they are locked in id order,
 * as a run's sync locks them, so a bulk change and a run (or two bulk changes) never deadlock. Each id
 * gets its own answer; another tenant's ids are not found, and never touched.
 */
@Injectable()
export class BulkUpdateDiscrepanciesUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly changes: TicketChanges,
  ) {}

  async execute(command: BulkUpdateDiscrepanciesCommand): Promise<{ results: BulkResult[] }> {
    assert.ok(command.ids.length <= BULK_TICKETS_MAX, 'the bulk change is bounded at the edge');
    assertNoteForClosing(command);
    const ids = command.ids.map((id) => id.toLowerCase());
    assert.equal(new Set(ids).size, ids.length, 'the ids are distinct (checked at the edge)');
    const change: TicketChange = { owner: command.owner, status: command.status, note: command.note };
    return this.db.transaction('read committed', async () => {
      const locked = await this.tickets.lockMany(command.tenantId, ids.filter(isUuid));
      const byId = new Map(locked.map((ticket) => [ticket.id, ticket]));
      const now = new Date();
      const decisions = ids.map((id) => decide(id, byId.get(id), change, now));
      const planned = decisions.flatMap((decision) => (decision.planned ? [decision.planned] : []));
      const saved = new Map(
        (await this.changes.save(command.tenantId, command.actor, planned)).map((ticket) => [ticket.id, ticket]),
      );
      const results = decisions.map(({ result }) =>
        result.outcome === 'updated' ? { ...result, ticket: ticketView(saved.get(result.id)!, now) } : result,
      );
      return { results };
    });
  }
}
