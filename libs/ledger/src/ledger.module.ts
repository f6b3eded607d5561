import { Module } from '@nestjs/common';
import { OutboxModule } from '@ledger/outbox';
import { AccountRepository } from './accounts/account.repository';
import { AccountReader } from './accounts/account-reader';
import { AccountReadsRepository } from './accounts/account-reads.repository';
import { BooksAuditRepository } from './audit/books-audit.repository';
import { CreateAccountUseCase } from './accounts/create-account.use-case';
import { GetAccountUseCase } from './accounts/get-account.use-case';
import { GetBalanceUseCase } from './accounts/get-balance.use-case';
import { ListAccountEntriesUseCase } from './accounts/list-account-entries.use-case';
import { ListAccountsUseCase } from './accounts/list-accounts.use-case';
import { TakeBalanceSnapshotsUseCase } from './accounts/take-balance-snapshots.use-case';
import { ExpireHoldsUseCase } from './holds/expire-holds.use-case';
import { HoldRepository } from './holds/hold.repository';
import { ResolveHoldUseCase } from './holds/resolve-hold.use-case';
import { JournalRepository } from './journal/journal.repository';
import { ReadBooksUseCase } from './journal/read-books.use-case';
import { VerifyJournalUseCase } from './journal/verify-journal.use-case';
import { ReverseTransactionUseCase } from './reversals/reverse-transaction.use-case';
import { GetTransactionUseCase } from './transactions/get-transaction.use-case';
import { ListTransactionsUseCase } from './transactions/list-transactions.use-case';
import { NamedTransactionRepository } from './transactions/named-transaction.repository';
import { PostBatchUseCase } from './transactions/post-batch.use-case';
import { PostTransactionUseCase } from './transactions/post-transaction.use-case';
import { GroupTransaction } from './transactions/group-transaction';
import { PostingGroups } from './transactions/posting-groups';
import { PostingEngine } from './transactions/posting-engine';
import { PostingRepository } from './transactions/posting.repository';
import { TransactionRepository } from './transactions/transaction.repository';
import { ConversionRepository } from './conversions/conversion.repository';
import { ConvertCurrencyUseCase } from './conversions/convert-currency.use-case';
import { CreateQuoteUseCase } from './conversions/create-quote.use-case';
import { GetPositionsUseCase } from './conversions/get-positions.use-case';
import { GetQuoteUseCase } from './conversions/get-quote.use-case';
import { PositionAccounts } from './conversions/position-accounts';

const useCases = [
  CreateAccountUseCase,
  GetAccountUseCase,
  GetBalanceUseCase,
  ListAccountsUseCase,
  ListAccountEntriesUseCase,
  TakeBalanceSnapshotsUseCase,
  PostTransactionUseCase,
  PostBatchUseCase,
  GetTransactionUseCase,
  ListTransactionsUseCase,
  ResolveHoldUseCase,
  ExpireHoldsUseCase,
  ReverseTransactionUseCase,
  VerifyJournalUseCase,
  ReadBooksUseCase,
  ConvertCurrencyUseCase,
  CreateQuoteUseCase,
  GetQuoteUseCase,
  GetPositionsUseCase,
];

@Module({
  imports: [OutboxModule],
  providers: [
    AccountRepository,
    TransactionRepository,
    PostingRepository,
    HoldRepository,
    JournalRepository,
    NamedTransactionRepository,
    PostingEngine,
    GroupTransaction,
    PostingGroups,
    AccountReadsRepository,
    AccountReader,
    BooksAuditRepository,
    ConversionRepository,
    PositionAccounts,
    ...useCases,
  ],
  // The journal's pages are read by the proofs and exports (libs/proofs, libs/exports).
  // Other libs read accounts and entries through AccountReader; reconciliation audits the books.
  exports: [...useCases, PostingGroups, JournalRepository, AccountReader, BooksAuditRepository],
})
export class LedgerModule {}
