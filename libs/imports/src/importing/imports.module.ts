import { Module } from '@nestjs/common';
import { OutboxModule } from '@ledger/outbox';
import { ImportRepository } from './import.repository';
import { GetImportUseCase, GetStatementLineUseCase, ListImportLinesUseCase } from './import-reads.use-cases';
import { ImportStatementUseCase } from './import-statement.use-case';
import { CreateSourceUseCase, ListSourcesUseCase, SaveCsvProfileUseCase } from './sources.use-cases';

const useCases = [
  ImportStatementUseCase,
  CreateSourceUseCase,
  ListSourcesUseCase,
  SaveCsvProfileUseCase,
  GetImportUseCase,
  ListImportLinesUseCase,
  GetStatementLineUseCase,
];

@Module({
  imports: [OutboxModule],
  providers: [ImportRepository, ...useCases],
  exports: useCases,
})
export class ImportsModule {}
