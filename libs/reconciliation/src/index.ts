export { ReconciliationModule } from './reconciliation.module';
export { ReconciliationSettingsModule, type ReconciliationSettings } from './reconciliation-settings.module';
export { RunReconciliationUseCase } from './run-reconciliation.use-case';
export { StartReconciliationUseCase } from './start-reconciliation.use-case';
export { ExecuteQueuedRunUseCase, type QueuedRunOutcome } from './execute-queued-run.use-case';
export { GetRunUseCase, ListRunsUseCase, CreateOwnerRouteUseCase } from './run-reads.use-cases';
export {
  DeleteOwnerRouteUseCase,
  ListOwnerRoutesUseCase,
  type OwnerRouteView,
  UpdateOwnerRouteUseCase,
} from './tickets/owner-routes.use-cases';
export {
  RunRepository,
  RUN_LEASE_SECONDS,
  RECONCILER_ACTOR,
  type RunView,
  type RunTrigger,
  type RunStatus,
  type RunPhase,
  type RunProgress,
} from './run.repository';
export {
  ListDiscrepanciesUseCase,
  GetDiscrepancyUseCase,
  CountDiscrepanciesUseCase,
} from './tickets/discrepancy-reads.use-cases';
export { UpdateDiscrepancyUseCase } from './tickets/update-discrepancy.use-case';
export { ReopenDiscrepancyUseCase } from './tickets/reopen-discrepancy.use-case';
export { CommentOnDiscrepancyUseCase } from './tickets/comment-on-discrepancy.use-case';
export {
  BulkUpdateDiscrepanciesUseCase,
  BULK_TICKETS_MAX,
  type BulkOutcome,
  type BulkResult,
} from './tickets/bulk-update-discrepancies.use-case';
export { AdjustDiscrepancyUseCase, type AdjustmentResult } from './tickets/adjust-discrepancy.use-case';
export type { TicketView, TicketEventView, TicketStatus, TicketCounts } from './tickets/ticket.views';
export { DISCREPANCY_KINDS, KIND_POLICY, type DiscrepancyKind, type Finding } from './domain/finding';
export { ownerFor, UNASSIGNED, type OwnerRoute } from './domain/routing';
export { ListStatementLinesUseCase, type ListedStatementLine } from './matching/list-statement-lines.use-case';
export type { LineStatus } from './matching/line-status.sql';
export { ManageMatchesUseCase, MANUAL_MATCH_MEMBERS_MAX, type MatchView } from './matching/manage-matches.use-cases';
export {
  SuggestCandidatesUseCase,
  CANDIDATES_DEFAULT,
  CANDIDATES_MAX,
  CANDIDATE_WINDOW_DAYS,
} from './matching/suggest-candidates.use-case';
export type { CandidateView, CandidateReason } from './matching/candidate-reasons';
export { MatchingRulesUseCases, type MatchingRulesView, type MatchingRuleView } from './rules/matching-rules.use-cases';
export {
  matchingRule,
  percentToBasisPoints,
  MATCHING_RULES_MAX,
  MATCH_WINDOW_DAYS_MAX,
  type MatchingRule,
} from './rules/matching-rule';
export { ReconciliationStatisticsUseCase, type ReconciliationStatistics } from './reconciliation-statistics.use-case';
