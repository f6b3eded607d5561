import { Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { ReconciliationModule } from '@ledger/reconciliation';
import { ExportJournalUseCase } from './export-journal.use-case';
import { ExportReconciliationUseCase } from './export-reconciliation.use-case';

const useCases = [ExportJournalUseCase, ExportReconciliationUseCase];

/** The journal, ticket and run exports; needs the database module of the process that imports it. */
@Module({
  imports: [LedgerModule, ReconciliationModule],
  providers: useCases,
  exports: useCases,
})
export class ExportsModule {}
