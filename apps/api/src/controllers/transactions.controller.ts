import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import {
  GetTransactionUseCase,
  ListTransactionsUseCase,
  PostBatchUseCase,
  PostTransactionUseCase,
  type PostTransactionRequest,
  ResolveHoldUseCase,
  ReverseTransactionUseCase,
  type TransactionView,
  postBatchSchema,
  postTransactionSchema,
  positiveAmountSchema,
} from '@ledger/ledger';
import { z } from 'zod';
import type { Response } from 'express';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { emptyBodySchema, transactionsQuerySchema } from './query.schemas';

// A POST without a body is an empty object.
const capturePayloadSchema = z.strictObject({ amount: positiveAmountSchema.optional() }).default({});
const reversePayloadSchema = z.strictObject({ description: z.string().max(1000).optional() }).default({});

@ApiTags('transactions')
@ApiBearerAuth()
@Controller('v1/transactions')
export class TransactionsController {
  constructor(
    private readonly postTransaction: PostTransactionUseCase,
    private readonly getTransaction: GetTransactionUseCase,
    private readonly listTransactions: ListTransactionsUseCase,
    private readonly postBatch: PostBatchUseCase,
    private readonly resolveHold: ResolveHoldUseCase,
    private readonly reverseTransaction: ReverseTransactionUseCase,
  ) {}

  /** Up to 1000 transactions; each succeeds or fails on its own (results in the same order). */
  @Post('batch')
  @Roles('poster')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(postBatchSchema) })
  batch(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(postBatchSchema)) body: z.output<typeof postBatchSchema>,
  ) {
    return this.postBatch.execute({ tenantId: principal.tenantId, transactions: body.transactions });
  }

  /** Captures a hold, all of it or `amount` of a two-leg hold; the rest is released. */
  @Post(':id/post')
  @Roles('poster')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(capturePayloadSchema), required: false })
  capture(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(capturePayloadSchema)) body: z.output<typeof capturePayloadSchema>,
  ) {
    return this.resolveHold.execute({
      tenantId: principal.tenantId,
      holdId: id,
      action: 'post',
      amountMinor: body.amount,
    });
  }

  @Post(':id/void')
  @Roles('poster')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  void(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.resolveHold.execute({ tenantId: principal.tenantId, holdId: id, action: 'void' });
  }

  @Post(':id/reverse')
  @Roles('poster')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(reversePayloadSchema), required: false })
  reverse(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(reversePayloadSchema)) body: z.output<typeof reversePayloadSchema>,
  ) {
    return this.reverseTransaction.execute({ tenantId: principal.tenantId, id, description: body.description });
  }

  /**
   * An externalRef already posted with the same content answers with that transaction (header
   * Ledger-Existing: true).
   */
  @Post()
  @Roles('poster')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(postTransactionSchema) })
  async post(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(postTransactionSchema)) body: PostTransactionRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TransactionView> {
    const result = await this.postTransaction.execute({ tenantId: principal.tenantId, request: body });
    if (!result.created) response.setHeader('Ledger-Existing', 'true');
    return result.transaction;
  }

  @Get(':id')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<TransactionView> {
    return this.getTransaction.execute({ tenantId: principal.tenantId, id });
  }

  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(transactionsQuerySchema, 'query')) query: z.output<typeof transactionsQuerySchema>,
  ) {
    return this.listTransactions.execute({ tenantId: principal.tenantId, ...query });
  }
}
