import { Injectable } from '@nestjs/common';
import { RunRepository } from './run.repository';
import { TicketRepository } from './tickets/ticket.repository';

export interface ReconciliationStatistics {
  runs: Record<string, number>;
  openTickets: Record<string, number>;
}

/** Reconciliation outcomes for the metrics endpoint; read from the tables, so every process agrees. */
@Injectable()
export class ReconciliationStatisticsUseCase {
  constructor(
    private readonly runs: RunRepository,
    private readonly tickets: TicketRepository,
  ) {}

  /** Runs by status, and tickets still open (or acknowledged) by kind, across tenants. */
  async execute(): Promise<ReconciliationStatistics> {
    return { runs: await this.runs.countByStatus(), openTickets: await this.tickets.workingByKind() };
  }
}
