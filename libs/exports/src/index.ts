// Exports for the audit file: the journal as an hledger journal or CSV, and the discrepancy tickets and
// reconciliation runs as CSV. Above the ledger, reconciliation and proofs (it quotes the journal head
// the way a balance proof does); nothing of ours imports it but the apps.
export { ExportsModule } from './exports.module';
export {
  ExportJournalUseCase,
  JOURNAL_FORMATS,
  type JournalFormat,
  type JournalExport,
} from './export-journal.use-case';
export {
  ExportReconciliationUseCase,
  RECONCILIATION_RECORDS,
  type ReconciliationRecords,
} from './export-reconciliation.use-case';
