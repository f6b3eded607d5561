import { decodeIdCursor, pageOf } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import type { DiscrepancyKind } from '../domain/finding';
import { TicketRepository } from './ticket.repository';
import {
  type TicketCounts,
  type TicketEventView,
  type TicketStatus,
  type TicketView,
  ticketView,
} from './ticket.views';

export interface ListDiscrepanciesCommand {
  tenantId: string;
  status?: TicketStatus;
  owner?: string;
  kind?: DiscrepancyKind;
  overdue?: boolean;
  minAmountMinor?: bigint;
  openedBefore?: Date;
  cursor?: string;
  limit: number;
}

@Injectable()
export class ListDiscrepanciesUseCase {
  constructor(private readonly tickets: TicketRepository) {}

  async execute(command: ListDiscrepanciesCommand): Promise<{ data: TicketView[]; nextCursor: string | null }> {
    const beforeId = command.cursor === undefined ? undefined : decodeIdCursor(command.cursor);
    const rows = await this.tickets.list(command.tenantId, { ...command, beforeId }, command.limit + 1);
    const page = pageOf(rows, command.limit, (last) => [last.id]);
    const now = new Date();
    return { data: page.data.map((ticket) => ticketView(ticket, now)), nextCursor: page.nextCursor };
  }
}

@Injectable()
export class GetDiscrepancyUseCase {
  constructor(private readonly tickets: TicketRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<TicketView & { history: TicketEventView[] }> {
    const ticket = isUuid(command.id) ? await this.tickets.find(command.tenantId, command.id.toLowerCase()) : undefined;
    if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    return { ...ticketView(ticket), history: await this.tickets.history(command.tenantId, ticket.id) };
  }
}

@Injectable()
export class CountDiscrepanciesUseCase {
  constructor(private readonly tickets: TicketRepository) {}

  execute(command: { tenantId: string }): Promise<TicketCounts> {
    return this.tickets.countByStatus(command.tenantId);
  }
}
