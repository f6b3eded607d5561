import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { dueAt } from '../domain/finding';
import { assertVersion } from './ticket-change';
import { TicketChanges } from './ticket-changes';
import { TicketRepository } from './ticket.repository';
import { type TicketEventView, type TicketView, ticketView } from './ticket.views';

export interface ReopenDiscrepancyCommand {
  tenantId: string;
  id: string;
  actor: string;
  /** Why it is being worked again: kept in the history with the actor. */
  note: string;
  /** `If-Match`: the version the person read. */
  expectedVersion?: number;
}

/**
 * A person reopens a resolved or ignored ticket: it is open again, with a fresh due date from now (as
 * when a run finds its cause back), and the same owner. A ticket still being worked is refused.
 */
@Injectable()
export class ReopenDiscrepancyUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly changes: TicketChanges,
  ) {}

  async execute(command: ReopenDiscrepancyCommand): Promise<TicketView & { history: TicketEventView[] }> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    const reopened = await this.db.transaction('read committed', async () => {
      const ticket = await this.tickets.lock(command.tenantId, command.id.toLowerCase());
      if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
      assertVersion(ticket, command.expectedVersion);
      if (ticket.status !== 'resolved' && ticket.status !== 'ignored') {
        throw new DomainError(
          'TICKET_NOT_CLOSED',
          `discrepancy ${ticket.id} is ${ticket.status}: only a resolved or ignored ticket is reopened`,
          { status: ticket.status },
        );
      }
      const now = new Date();
      const [saved] = await this.changes.save(command.tenantId, command.actor, [
        {
          before: ticket,
          next: { ...ticket, status: 'open', resolvedAt: null, dueAt: dueAt(ticket.kind, now), updatedAt: now },
          actions: [{ action: 'reopened', changes: { status: { from: ticket.status, to: 'open' } } }],
          note: command.note,
        },
      ]);
      return saved!;
    });
    return { ...ticketView(reopened), history: await this.tickets.history(command.tenantId, reopened.id) };
  }
}
