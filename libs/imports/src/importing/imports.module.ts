import { Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { OutboxModule } from '@ledger/outbox';
import { ImportRepository } from './import.repository';
import {
  GetImportUseCase,
  GetStatementLineUseCase,
  ListImportLinesUseCase,
  ListImportsUseCase,
} from './import-reads.use-cases';
import { ImportStatementUseCase } from './import-statement.use-case';
import { SourceRepository } from './source.repository';
import { CreateSourceUseCase, ListSourcesUseCase, SaveCsvProfileUseCase } from './sources.use-cases';
import { StatementLineReader } from './statement-line-reader';
import { StatementSourceReader } from './statement-source-reader';

const useCases = [
  ImportStatementUseCase,
  CreateSourceUseCase,
  ListSourcesUseCase,
  SaveCsvProfileUseCase,
  GetImportUseCase,
  ListImportLinesUseCase,
  ListImportsUseCase,
  GetStatementLineUseCase,
];

/** Other libs read sources and lines through the two readers; the ledger's accounts through AccountReader. */
const readers = [StatementSourceReader, StatementLineReader];

@Module({
  imports: [LedgerModule, OutboxModule],
  providers: [ImportRepository, SourceRepository, ...readers, ...useCases],
  exports: [...useCases, ...readers],
})
export class ImportsModule {}
