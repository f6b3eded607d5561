// The shapes of the API answers the console reads: the types generated from the API's OpenAPI document
// (libs/client/src/generated, `npm run openapi`), so that a change of the API that the console relies on
// fails its type check. The console speaks only HTTP: these are types, nothing of the server runs here.
import type { LedgerSchema } from '@ledger/client';

type Discrepancy = LedgerSchema<'Discrepancy'>;

export const TICKET_STATUSES = [
  'open',
  'acknowledged',
  'resolved',
  'ignored',
] as const satisfies readonly Discrepancy['status'][];
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const DISCREPANCY_KINDS = [
  'missing_in_ledger',
  'missing_in_statement',
  'amount_mismatch',
  'duplicate',
  'currency_mismatch',
  'ambiguous_match',
  'invariant_violation',
  'stale_hold',
  'balance_continuity',
  'stuck_payment_order',
] as const satisfies readonly Discrepancy['kind'][];

type ApiPaymentOrder = LedgerSchema<'PaymentOrder'>;

/** In the order of the saga, the end states last. */
export const PAYMENT_ORDER_STATUSES = [
  'reserved',
  'submitting',
  'submitted',
  'settled',
  'returned',
  'rejected',
  'cancelled',
] as const satisfies readonly ApiPaymentOrder['status'][];

// The filters offer every status and kind the API has: a new one fails here until it is listed above.
type Assert<Condition extends true> = Condition;
type ListsAll<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
export type ConsoleListsEveryValue = [
  Assert<ListsAll<Discrepancy['status'], TicketStatus>>,
  Assert<ListsAll<Discrepancy['kind'], (typeof DISCREPANCY_KINDS)[number]>>,
  Assert<ListsAll<ApiPaymentOrder['status'], PaymentOrderStatus>>,
];

export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

export type Ticket = Discrepancy;
export type TicketEvent = LedgerSchema<'DiscrepancyWithHistory'>['history'][number];
export type TicketCounts = LedgerSchema<'DiscrepancyCounts'>;
export type TicketBulkResult = LedgerSchema<'DiscrepancyBulkResults'>['results'][number];
export type Match = LedgerSchema<'Match'>;
export type Transaction = LedgerSchema<'Transaction'>;
export type Source = LedgerSchema<'Source'>;
export type StatementImport = LedgerSchema<'Import'>;
/** `importId` is there when the line is read on its own (GET /v1/statement-lines/:id). */
export type StatementLine = LedgerSchema<'StatementLine'> &
  Partial<Pick<LedgerSchema<'StatementLineWithImport'>, 'importId'>>;
export type ListedStatementLine = LedgerSchema<'ListedStatementLine'>;
export type Run = LedgerSchema<'ReconciliationRun'>;
export type Account = LedgerSchema<'Account'>;
export type AccountEntry = LedgerSchema<'AccountEntry'>;
export type BalanceProof = LedgerSchema<'BalanceProof'>;
export type BalanceProofCheckpoint = LedgerSchema<'BalanceProofCheckpoint'>;
export type ApiKey = LedgerSchema<'ApiKey'>;
export type OwnerRoute = LedgerSchema<'OwnerRoute'>;
/** Lists leave the steps out; the single order has them. */
export type PaymentOrder = Omit<ApiPaymentOrder, 'steps'>;
export type PaymentOrderStep = NonNullable<ApiPaymentOrder['steps']>[number];
export type PaymentOrderWithSteps = PaymentOrder & { steps: PaymentOrderStep[] };
export type PaymentOrderCounts = LedgerSchema<'PaymentOrderCounts'>;
