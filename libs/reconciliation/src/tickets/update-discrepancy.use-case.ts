import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { OutboxRepository } from '@ledger/outbox';
import { TicketRepository } from './ticket.repository';
import { type TicketEventView, type TicketStatus, type TicketView, ticketView } from './ticket.views';

export interface UpdateDiscrepancyCommand {
  tenantId: string;
  id: string;
  /** Who made the change: the API key's id. */
  actor: string;
  owner?: string;
  status?: 'acknowledged' | 'resolved' | 'ignored';
  note?: string;
  /** The version the change was made to (`If-Match`): a ticket changed since is refused, not written over. */
  expectedVersion?: number;
}

/** Which status a person may move a ticket to from each status. */
const ALLOWED: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ['acknowledged', 'resolved', 'ignored'],
  acknowledged: ['resolved', 'ignored'],
  resolved: [],
  ignored: [],
};

/** A person works a ticket: assigns it, acknowledges it, resolves or ignores it (with a note). */
@Injectable()
export class UpdateDiscrepancyUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute(command: UpdateDiscrepancyCommand): Promise<TicketView & { history: TicketEventView[] }> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    if ((command.status === 'resolved' || command.status === 'ignored') && !command.note?.trim()) {
      throw new DomainError('VALIDATION_FAILED', `a ticket is ${command.status} only with a note saying why`, {
        fields: [{ path: 'note', message: 'required' }],
      });
    }
    const updated = await this.db.transaction('read committed', async () => {
      const ticket = await this.tickets.lock(command.tenantId, command.id.toLowerCase());
      if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
      if (command.expectedVersion !== undefined && command.expectedVersion !== ticket.version) {
        throw new DomainError(
          'STALE_VERSION',
          `discrepancy ${ticket.id} is at version ${ticket.version}, not ${command.expectedVersion}: ` +
            'it changed since; read it again',
          { version: ticket.version },
        );
      }
      const next = { ...ticket, updatedAt: new Date() };
      const actions: { action: string; changes: Record<string, unknown> }[] = [];
      if (command.owner !== undefined && command.owner !== ticket.owner) {
        next.owner = command.owner;
        actions.push({ action: 'assigned', changes: { owner: { from: ticket.owner, to: command.owner } } });
      }
      if (command.status !== undefined && command.status !== ticket.status) {
        if (!ALLOWED[ticket.status].includes(command.status)) {
          throw new DomainError('VALIDATION_FAILED', `a ${ticket.status} ticket cannot become ${command.status}`, {
            fields: [{ path: 'status', message: 'not allowed from the current status' }],
          });
        }
        next.status = command.status;
        if (command.status === 'resolved' || command.status === 'ignored') next.resolvedAt = next.updatedAt;
        actions.push({ action: command.status, changes: { status: { from: ticket.status, to: command.status } } });
      }
      if (actions.length === 0 && command.note) actions.push({ action: 'noted', changes: {} });
      if (actions.length === 0) return ticket;
      Object.assign(next, await this.tickets.work(command.tenantId, next));
      await this.tickets.appendEvents(
        command.tenantId,
        actions.map((entry, index) => ({
          ticketId: ticket.id,
          actor: command.actor,
          ...entry,
          note: index === 0 ? command.note : undefined,
        })),
      );
      const type =
        next.status === 'resolved' && ticket.status !== 'resolved' ? 'discrepancy.resolved' : 'discrepancy.updated';
      await this.outbox.append(command.tenantId, [
        {
          type,
          aggregateType: 'discrepancy',
          aggregateId: ticket.id,
          aggregateVersion: BigInt(next.updatedAt.getTime()),
          data: { discrepancy: ticketView(next) },
        },
      ]);
      return next;
    });
    return { ...ticketView(updated), history: await this.tickets.history(command.tenantId, updated.id) };
  }
}
