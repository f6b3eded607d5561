import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { type KeyInTransaction, type Outcome, RequestKey } from '@ledger/idempotency';
import {
  BATCH_SIZE_MAX,
  GetTransactionUseCase,
  ListTransactionsUseCase,
  PostBatchUseCase,
  PostingGroups,
  type PostTransactionRequest,
  ResolveHoldUseCase,
  ReverseTransactionUseCase,
  type TransactionView,
  postBatchSchema,
  postTransactionSchema,
  positiveAmountSchema,
} from '@ledger/ledger';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { batchResultView, transactionPage, transactionView } from '../openapi/views/ledger.views';
import { emptyBodySchema, transactionsQuerySchema } from './query.schemas';

// A POST without a body is an empty object.
const capturePayloadSchema = z.strictObject({ amount: positiveAmountSchema.optional() }).default({});
const reversePayloadSchema = z.strictObject({ description: z.string().max(1000).optional() }).default({});

// The batch is validated item by item (an item's error is its result); this is what each item should be.
const batchItemsSchema = z.strictObject({ transactions: z.array(postTransactionSchema).min(1).max(BATCH_SIZE_MAX) });

const POSTING_ERRORS = [
  'ACCOUNT_NOT_FOUND',
  'UNBALANCED',
  'INSUFFICIENT_FUNDS',
  'CURRENCY_MISMATCH',
  'AMOUNT_OUT_OF_RANGE',
] as const;

const TRANSFER_EXAMPLE = {
  externalRef: 'order-1042',
  description: 'Alice pays Bob',
  entries: [
    { account: 'liabilities:wallets:alice', direction: 'debit', amount: '1500', currency: 'USD' },
    { account: 'liabilities:wallets:bob', direction: 'credit', amount: '1500', currency: 'USD' },
  ],
};

@ApiTags('transactions')
@Controller('v1/transactions')
export class TransactionsController {
  constructor(
    private readonly postingGroups: PostingGroups,
    private readonly getTransaction: GetTransactionUseCase,
    private readonly listTransactions: ListTransactionsUseCase,
    private readonly postBatch: PostBatchUseCase,
    private readonly resolveHold: ResolveHoldUseCase,
    private readonly reverseTransaction: ReverseTransactionUseCase,
  ) {}

  /** Up to 1000 transactions; each succeeds or fails on its own (results in the same order). */
  @Post('batch')
  @Endpoint({
    operationId: 'postTransactionBatch',
    summary: 'Post a batch of transactions',
    description:
      'Up to 1000 transactions in one database transaction; each item is atomic on its own (a refused item ' +
      'leaves no trace and is its own `error` result), results in input order.',
    access: ['poster'],
    idempotency: 'required',
    keyInHandler: true,
    body: batchItemsSchema,
    bodyExample: { transactions: [TRANSFER_EXAMPLE] },
    answer: { status: 201, description: 'One result per item.', schema: batchResultView },
  })
  /** The key claimed with the accounts' locks, the answer stored behind the write (see executeWithKey). */
  batch(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(postBatchSchema)) body: z.output<typeof postBatchSchema>,
    @RequestKey() key: KeyInTransaction,
  ): Promise<Outcome> {
    return this.postBatch.executeWithKey(
      { tenantId: principal.tenantId, actor: principal.actor, transactions: body.transactions },
      key,
    );
  }

  /** Captures a hold, all of it or `amount` of a two-leg hold; the rest is released. */
  @Post(':id/post')
  @Endpoint({
    operationId: 'postHold',
    summary: 'Post (capture) a hold',
    description: 'All of it, or `amount` of a two-leg hold (the rest is released): a new transaction naming the hold.',
    access: ['poster'],
    idempotency: 'required',
    body: capturePayloadSchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The capture record.', schema: transactionView },
    keyInHandler: true,
    errors: ['NOT_FOUND', 'NOT_A_HOLD', 'HOLD_ALREADY_RESOLVED', 'HOLD_EXPIRED', 'AMOUNT_OUT_OF_RANGE'],
  })
  /** Written with the postings that arrive meanwhile, like them (see PostingGroups); so are voids and reversals. */
  async capture(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(capturePayloadSchema)) body: z.output<typeof capturePayloadSchema>,
    @RequestKey() key: KeyInTransaction,
  ): Promise<Outcome> {
    const { answer } = await this.resolveHold.submit(
      { tenantId: principal.tenantId, holdId: id, action: 'post', actor: principal.actor, amountMinor: body.amount },
      key,
    );
    return answer;
  }

  @Post(':id/void')
  @Endpoint({
    operationId: 'voidHold',
    summary: 'Void a hold',
    description: 'Releases the reserved amounts: a new transaction naming the hold.',
    access: ['poster'],
    idempotency: 'required',
    body: emptyBodySchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The void record.', schema: transactionView },
    keyInHandler: true,
    errors: ['NOT_FOUND', 'NOT_A_HOLD', 'HOLD_ALREADY_RESOLVED', 'HOLD_EXPIRED'],
  })
  async void(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
    @RequestKey() key: KeyInTransaction,
  ): Promise<Outcome> {
    const { answer } = await this.resolveHold.submit(
      { tenantId: principal.tenantId, holdId: id, action: 'void', actor: principal.actor },
      key,
    );
    return answer;
  }

  @Post(':id/reverse')
  @Endpoint({
    operationId: 'reverseTransaction',
    summary: 'Reverse a transaction',
    description: 'Posts the mirror image (`reversesId`); a transaction is reversed at most once, a reversal never.',
    access: ['poster'],
    idempotency: 'required',
    body: reversePayloadSchema,
    bodyOptional: true,
    answer: { status: 201, description: 'The reversal.', schema: transactionView },
    keyInHandler: true,
    errors: ['NOT_FOUND', 'NOT_REVERSIBLE', 'ALREADY_REVERSED', 'INSUFFICIENT_FUNDS', 'AMOUNT_OUT_OF_RANGE'],
  })
  async reverse(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(reversePayloadSchema)) body: z.output<typeof reversePayloadSchema>,
    @RequestKey() key: KeyInTransaction,
  ): Promise<Outcome> {
    const { answer } = await this.reverseTransaction.submit(
      { tenantId: principal.tenantId, id, actor: principal.actor, description: body.description },
      key,
    );
    return answer;
  }

  @Post()
  @Endpoint({
    operationId: 'postTransaction',
    summary: 'Post a transaction',
    description:
      'Entries of positive amounts whose debits and credits are equal per currency; with `pending` a hold that ' +
      'reserves the amounts until posted, voided or expired. An externalRef already posted with the same ' +
      'content answers that transaction (`Ledger-Existing: true`).',
    access: ['poster'],
    idempotency: 'required',
    keyInHandler: true,
    body: postTransactionSchema,
    bodyExample: TRANSFER_EXAMPLE,
    answer: { status: 201, description: 'The transaction.', schema: transactionView, existing: true },
    errors: [...POSTING_ERRORS, 'EXTERNAL_REF_CONFLICT'],
  })
  /** Written with the postings that arrive meanwhile, in one transaction (see PostingGroups). */
  async post(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(postTransactionSchema)) body: PostTransactionRequest,
    @RequestKey() key: KeyInTransaction,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<Outcome> {
    const { answer, existing } = await this.postingGroups.submit(
      { tenantId: principal.tenantId, actor: principal.actor, request: body },
      key,
    );
    if (existing) response.header('Ledger-Existing', 'true');
    return answer;
  }

  @Get(':id')
  @Endpoint({
    operationId: 'getTransaction',
    summary: 'Get a transaction',
    access: 'any-key',
    answer: { status: 200, description: 'The transaction.', schema: transactionView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<TransactionView> {
    return this.getTransaction.execute({ tenantId: principal.tenantId, id });
  }

  @Get()
  @Endpoint({
    operationId: 'listTransactions',
    summary: 'List transactions',
    description: 'Newest first, filtered by account, externalRef, status, metadata and creation time.',
    access: 'any-key',
    query: transactionsQuerySchema,
    answer: { status: 200, description: 'A page of transactions.', schema: transactionPage },
    errors: ['NOT_FOUND'],
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(transactionsQuerySchema, 'query')) query: z.output<typeof transactionsQuerySchema>,
  ) {
    return this.listTransactions.execute({ tenantId: principal.tenantId, ...query });
  }
}
