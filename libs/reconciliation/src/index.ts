export { ReconciliationModule } from './reconciliation.module';
export { RunReconciliationUseCase } from './run-reconciliation.use-case';
export { GetRunUseCase, ListRunsUseCase, CreateOwnerRouteUseCase } from './run-reads.use-cases';
export { RunRepository, type RunView, type RunTrigger } from './run.repository';
export { ListDiscrepanciesUseCase, GetDiscrepancyUseCase } from './tickets/discrepancy-reads.use-cases';
export { UpdateDiscrepancyUseCase } from './tickets/update-discrepancy.use-case';
export type { TicketView, TicketEventView, TicketStatus } from './tickets/ticket.views';
export { DISCREPANCY_KINDS, KIND_POLICY, type DiscrepancyKind, type Finding } from './domain/finding';
export { ownerFor, UNASSIGNED, type OwnerRoute } from './domain/routing';
