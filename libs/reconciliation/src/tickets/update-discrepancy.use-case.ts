import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { assertNoteForClosing, assertVersion, planTicketChange, type TicketChange } from './ticket-change';
import { TicketChanges } from './ticket-changes';
import { TicketRepository } from './ticket.repository';
import { type TicketEventView, type TicketView, ticketView } from './ticket.views';

export interface UpdateDiscrepancyCommand extends TicketChange {
  tenantId: string;
  id: string;
  /** Who made the change: the API key's id. */
  actor: string;
  /** The version the change was made to (`If-Match`): a ticket changed since is refused, not written over. */
  expectedVersion?: number;
}

/** A person works a ticket: assigns it, acknowledges it, resolves or ignores it (with a note). */
@Injectable()
export class UpdateDiscrepancyUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly changes: TicketChanges,
  ) {}

  async execute(command: UpdateDiscrepancyCommand): Promise<TicketView & { history: TicketEventView[] }> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    assertNoteForClosing(command);
    const updated = await this.db.transaction('read committed', async () => {
      const ticket = await this.tickets.lock(command.tenantId, command.id.toLowerCase());
      if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
      assertVersion(ticket, command.expectedVersion);
      const planned = planTicketChange(ticket, command, new Date());
      if (planned.actions.length === 0) return ticket;
      const [saved] = await this.changes.save(command.tenantId, command.actor, [planned]);
      return saved!;
    });
    return { ...ticketView(updated), history: await this.tickets.history(command.tenantId, updated.id) };
  }
}
