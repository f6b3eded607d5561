import { Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { OutboxModule } from '@ledger/outbox';
import { InvariantChecks } from './checks/invariant-checks';
import { ManageMatchesUseCase } from './matching/manage-matches.use-cases';
import { MatchStatements } from './matching/match-statements';
import { MatchingRulesUseCases } from './rules/matching-rules.use-cases';
import { ReconciliationStatisticsUseCase } from './reconciliation-statistics.use-case';
import { RunRepository } from './run.repository';
import { CreateOwnerRouteUseCase, GetRunUseCase, ListRunsUseCase } from './run-reads.use-cases';
import { RunReconciliationUseCase } from './run-reconciliation.use-case';
import {
  CountDiscrepanciesUseCase,
  GetDiscrepancyUseCase,
  ListDiscrepanciesUseCase,
} from './tickets/discrepancy-reads.use-cases';
import { SyncTickets } from './tickets/sync-tickets';
import { TicketRepository } from './tickets/ticket.repository';
import { UpdateDiscrepancyUseCase } from './tickets/update-discrepancy.use-case';

const useCases = [
  ManageMatchesUseCase,
  MatchingRulesUseCases,
  RunReconciliationUseCase,
  GetRunUseCase,
  ListRunsUseCase,
  ListDiscrepanciesUseCase,
  CountDiscrepanciesUseCase,
  GetDiscrepancyUseCase,
  UpdateDiscrepancyUseCase,
  CreateOwnerRouteUseCase,
  ReconciliationStatisticsUseCase,
];

@Module({
  imports: [LedgerModule, OutboxModule],
  providers: [RunRepository, TicketRepository, InvariantChecks, MatchStatements, SyncTickets, ...useCases],
  exports: [...useCases, RunRepository],
})
export class ReconciliationModule {}
