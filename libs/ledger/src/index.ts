export { LedgerModule } from './ledger.module';
export { CreateAccountUseCase } from './accounts/create-account.use-case';
export { GetAccountUseCase } from './accounts/get-account.use-case';
export { GetBalanceUseCase, type BalanceView } from './accounts/get-balance.use-case';
export { ListAccountsUseCase } from './accounts/list-accounts.use-case';
export { ListAccountEntriesUseCase, type AccountEntryView } from './accounts/list-account-entries.use-case';
export { TakeBalanceSnapshotsUseCase } from './accounts/take-balance-snapshots.use-case';
export { createAccountSchema, type CreateAccountRequest } from './accounts/create-account.schema';
export type { AccountView } from './accounts/account.view';
export { PostTransactionUseCase, type PostTransactionResult } from './transactions/post-transaction.use-case';
export type { GroupedKey } from './transactions/grouped-request';
export { PostingGroups, type GroupWritten } from './transactions/posting-groups';
export { POSTING_GROUP_ITEMS_MAX, POSTING_GROUP_BYTES_MAX } from './transactions/group-lanes';
export { PostBatchUseCase, postBatchSchema, type BatchItemResult } from './transactions/post-batch.use-case';
export { GetTransactionUseCase } from './transactions/get-transaction.use-case';
export { ListTransactionsUseCase } from './transactions/list-transactions.use-case';
export { T_HAS_METADATA } from './transactions/transaction-queries.sql';
export { postTransactionSchema, legSchema, type PostTransactionRequest } from './transactions/post-transaction.schema';
export type { TransactionView, EntryView, TransactionStatus } from './transactions/transaction.view';
export { ResolveHoldUseCase, type HoldAction } from './holds/resolve-hold.use-case';
export { ExpireHoldsUseCase } from './holds/expire-holds.use-case';
export { ReverseTransactionUseCase } from './reversals/reverse-transaction.use-case';
export { VerifyJournalUseCase, type JournalVerification } from './journal/verify-journal.use-case';
export { JournalRepository, encodeStoredLink, type StoredLink } from './journal/journal.repository';
export { ReadBooksUseCase, type Books, type JournalHead } from './journal/read-books.use-case';
export { chainHash, JOURNAL_GENESIS_HASH } from './domain/journal-encoding';
export type { AccountPostedTotals } from './accounts/account.repository';
export { balancesOf, type Balances, type Side } from './domain/balances';
export {
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  LEGS_PER_TRANSACTION_MAX,
  BATCH_SIZE_MAX,
  DESCRIPTION_LENGTH_MAX,
  EXTERNAL_REF_LENGTH_MAX,
} from './domain/limits';
export { BACKDATE_WINDOW_MS, FUTURE_SKEW_MAX_MS } from './domain/effective-at';
export { instantSchema, metadataSchema, positiveAmountSchema, currencySchema } from './domain/field-schemas';
export { AccountReader } from './accounts/account-reader';
export type { AccountSummary, EntrySummary } from './accounts/account-reads.repository';
export { BooksAuditRepository } from './audit/books-audit.repository';
export type { BooksAuditRow } from './audit/books-audit.sql';
export {
  ConvertCurrencyUseCase,
  type ConversionView,
  type ConvertCurrencyResult,
} from './conversions/convert-currency.use-case';
export { CreateQuoteUseCase } from './conversions/create-quote.use-case';
export { GetQuoteUseCase } from './conversions/get-quote.use-case';
export {
  GetPositionsUseCase,
  POSITION_PAIRS_MAX,
  POSITION_ACCOUNTS_MAX,
  type PositionsView,
} from './conversions/get-positions.use-case';
export type { QuoteView } from './conversions/quote.view';
export type { ConversionMetadata } from './conversions/conversion-item';
export {
  convertSchema,
  createQuoteSchema,
  QUOTE_TTL_SECONDS_MAX,
  type ConvertRequest,
  type CreateQuoteRequest,
} from './conversions/conversion.schema';
export { ROUNDING_MODES, RATE_SIGNIFICANT_DIGITS_MAX, POSITION_ACCOUNT_PREFIX } from './domain/conversion';
