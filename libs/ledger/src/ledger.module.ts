import { Module } from '@nestjs/common';
import { OutboxModule } from '@ledger/outbox';
import { AccountRepository } from './accounts/account.repository';
import { CreateAccountUseCase } from './accounts/create-account.use-case';
import { GetAccountUseCase } from './accounts/get-account.use-case';
import { ListAccountEntriesUseCase } from './accounts/list-account-entries.use-case';
import { GetTransactionUseCase } from './transactions/get-transaction.use-case';
import { ListTransactionsUseCase } from './transactions/list-transactions.use-case';
import { PostTransactionUseCase } from './transactions/post-transaction.use-case';
import { TransactionRepository } from './transactions/transaction.repository';
import { PostingEngine } from './transactions/posting-engine';
import { PostingRepository } from './transactions/posting.repository';

const useCases = [
  CreateAccountUseCase,
  GetAccountUseCase,
  ListAccountEntriesUseCase,
  PostTransactionUseCase,
  GetTransactionUseCase,
  ListTransactionsUseCase,
];

@Module({
  imports: [OutboxModule],
  providers: [AccountRepository, TransactionRepository, PostingRepository, PostingEngine, ...useCases],
  exports: useCases,
})
export class LedgerModule {}
