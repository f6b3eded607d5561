import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import {
  GetTransactionUseCase,
  ListTransactionsUseCase,
  PostTransactionUseCase,
  type PostTransactionRequest,
  type TransactionView,
  postTransactionSchema,
} from '@ledger/ledger';
import type { Response } from 'express';
import type { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { transactionsQuerySchema } from './query.schemas';

@ApiTags('transactions')
@ApiBearerAuth()
@Controller('v1/transactions')
export class TransactionsController {
  constructor(
    private readonly postTransaction: PostTransactionUseCase,
    private readonly getTransaction: GetTransactionUseCase,
    private readonly listTransactions: ListTransactionsUseCase,
  ) {}

  /** An externalRef already posted with the same content answers with that transaction (header Ledger-Existing: true). */
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
