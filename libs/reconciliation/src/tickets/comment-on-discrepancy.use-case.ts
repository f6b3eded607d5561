import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { TicketChanges } from './ticket-changes';
import { TicketRepository } from './ticket.repository';
import { type TicketEventView, type TicketView, ticketView } from './ticket.views';

export interface CommentOnDiscrepancyCommand {
  tenantId: string;
  id: string;
  actor: string;
  note: string;
}

/**
 * A comment on a ticket, whatever its status: one `noted` history entry with the actor and the note. Sent with
 * an Idempotency-Key, a retried comment is stored once.
 */
@Injectable()
export class CommentOnDiscrepancyUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly changes: TicketChanges,
  ) {}

  async execute(command: CommentOnDiscrepancyCommand): Promise<TicketView & { history: TicketEventView[] }> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    const commented = await this.db.transaction('read committed', async () => {
      const ticket = await this.tickets.lock(command.tenantId, command.id.toLowerCase());
      if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
      const [saved] = await this.changes.save(command.tenantId, command.actor, [
        {
          before: ticket,
          next: { ...ticket, updatedAt: new Date() },
          actions: [{ action: 'noted', changes: {} }],
          note: command.note,
        },
      ]);
      return saved!;
    });
    return { ...ticketView(commented), history: await this.tickets.history(command.tenantId, commented.id) };
  }
}
