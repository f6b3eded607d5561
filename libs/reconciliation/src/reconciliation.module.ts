import { Module } from '@nestjs/common';
import { ImportsModule } from '@ledger/imports';
import { PaymentsModule } from '@ledger/payments';
import { LedgerModule } from '@ledger/ledger';
import { OutboxModule } from '@ledger/outbox';
import { InvariantChecks } from './checks/invariant-checks';
import { LineStatusRepository } from './matching/line-status.repository';
import { ListStatementLinesUseCase } from './matching/list-statement-lines.use-case';
import { ManageMatchesUseCase } from './matching/manage-matches.use-cases';
import { MatchRepository } from './matching/match.repository';
import { MatchStatements } from './matching/match-statements';
import { MatchViews } from './matching/match-views';
import { MatchingRepository } from './matching/matching.repository';
import { SuggestCandidatesUseCase } from './matching/suggest-candidates.use-case';
import { MatchingRuleRepository } from './rules/matching-rule.repository';
import { MatchingRulesUseCases } from './rules/matching-rules.use-cases';
import { ReconciliationStatisticsUseCase } from './reconciliation-statistics.use-case';
import { RunRepository } from './run.repository';
import { CreateOwnerRouteUseCase, GetRunUseCase, ListRunsUseCase } from './run-reads.use-cases';
import { ExecuteQueuedRunUseCase } from './execute-queued-run.use-case';
import { RunExecution } from './run-execution';
import { RunReconciliationUseCase } from './run-reconciliation.use-case';
import { StartReconciliationUseCase } from './start-reconciliation.use-case';
import {
  CountDiscrepanciesUseCase,
  GetDiscrepancyUseCase,
  ListDiscrepanciesUseCase,
} from './tickets/discrepancy-reads.use-cases';
import { OwnerRouteRepository } from './tickets/owner-route.repository';
import { SyncTickets } from './tickets/sync-tickets';
import { TicketRepository } from './tickets/ticket.repository';
import { UpdateDiscrepancyUseCase } from './tickets/update-discrepancy.use-case';
import { BulkUpdateDiscrepanciesUseCase } from './tickets/bulk-update-discrepancies.use-case';
import { CommentOnDiscrepancyUseCase } from './tickets/comment-on-discrepancy.use-case';
import { ReopenDiscrepancyUseCase } from './tickets/reopen-discrepancy.use-case';
import { TicketChanges } from './tickets/ticket-changes';
import { AdjustDiscrepancyUseCase } from './tickets/adjust-discrepancy.use-case';
import {
  DeleteOwnerRouteUseCase,
  ListOwnerRoutesUseCase,
  UpdateOwnerRouteUseCase,
} from './tickets/owner-routes.use-cases';

const useCases = [
  ManageMatchesUseCase,
  SuggestCandidatesUseCase,
  MatchingRulesUseCases,
  RunReconciliationUseCase,
  StartReconciliationUseCase,
  ExecuteQueuedRunUseCase,
  GetRunUseCase,
  ListRunsUseCase,
  ListDiscrepanciesUseCase,
  CountDiscrepanciesUseCase,
  GetDiscrepancyUseCase,
  UpdateDiscrepancyUseCase,
  ReopenDiscrepancyUseCase,
  BulkUpdateDiscrepanciesUseCase,
  CommentOnDiscrepancyUseCase,
  AdjustDiscrepancyUseCase,
  CreateOwnerRouteUseCase,
  ListOwnerRoutesUseCase,
  UpdateOwnerRouteUseCase,
  DeleteOwnerRouteUseCase,
  ReconciliationStatisticsUseCase,
  ListStatementLinesUseCase,
];

const repositories = [
  RunRepository,
  TicketRepository,
  OwnerRouteRepository,
  MatchRepository,
  MatchingRepository,
  MatchingRuleRepository,
  LineStatusRepository,
];

/** Reads statement sources and lines through libs/imports' readers, accounts and entries through the ledger's. */
@Module({
  imports: [LedgerModule, ImportsModule, OutboxModule, PaymentsModule],
  providers: [
    ...repositories,
    InvariantChecks,
    MatchStatements,
    MatchViews,
    SyncTickets,
    TicketChanges,
    RunExecution,
    ...useCases,
  ],
  exports: [...useCases, RunRepository],
})
export class ReconciliationModule {}
