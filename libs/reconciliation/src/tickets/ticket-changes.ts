import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { OutboxRepository } from '@ledger/outbox';
import type { PlannedChange } from './ticket-change';
import { TicketRepository } from './ticket.repository';
import { type Ticket, ticketView } from './ticket.views';

/**
 * Writes people's changes of tickets they hold locked, in the current transaction: the tickets (one
 * version on each), their history entries with the actor and the note, and one event per ticket.
 */
@Injectable()
export class TicketChanges {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  /** Answers the tickets as written, in the order given; changes without history entries are not given. */
  async save(tenantId: string, actor: string, changes: readonly PlannedChange[]): Promise<Ticket[]> {
    assert.ok(
      changes.every((change) => change.actions.length > 0),
      'a saved change leaves at least one history entry',
    );
    if (changes.length === 0) return [];
    const worked = await this.tickets.workMany(
      tenantId,
      changes.map((change) => change.next),
    );
    const saved = changes.map((change) => {
      const written = worked.get(change.next.id);
      assert.ok(written !== undefined, `ticket ${change.next.id} was locked, so it is written`);
      return { ...change.next, ...written };
    });
    await this.tickets.appendEvents(
      tenantId,
      changes.flatMap((change) =>
        change.actions.map((entry, index) => ({
          ticketId: change.next.id,
          actor,
          ...entry,
          note: index === 0 ? change.note : undefined,
        })),
      ),
    );
    await this.outbox.append(
      tenantId,
      saved.map((ticket, index) => ({
        type:
          ticket.status === 'resolved' && changes[index]!.before.status !== 'resolved'
            ? 'discrepancy.resolved'
            : 'discrepancy.updated',
        aggregateType: 'discrepancy',
        aggregateId: ticket.id,
        aggregateVersion: BigInt(ticket.updatedAt.getTime()),
        data: { discrepancy: ticketView(ticket) },
      })),
    );
    return saved;
  }
}
