import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import {
  type AccountView,
  CreateAccountUseCase,
  type CreateAccountRequest,
  GetAccountUseCase,
  GetBalanceUseCase,
  ListAccountEntriesUseCase,
  ListAccountsUseCase,
  createAccountSchema,
} from '@ledger/ledger';
import type { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { accountsQuerySchema, balanceQuerySchema, pageQuerySchema } from './query.schemas';

@ApiTags('accounts')
@ApiBearerAuth()
@Controller('v1/accounts')
export class AccountsController {
  constructor(
    private readonly createAccount: CreateAccountUseCase,
    private readonly getAccount: GetAccountUseCase,
    private readonly listEntries: ListAccountEntriesUseCase,
    private readonly listAccounts: ListAccountsUseCase,
    private readonly getBalance: GetBalanceUseCase,
  ) {}

  @Get()
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(accountsQuerySchema, 'query')) query: z.output<typeof accountsQuerySchema>,
  ) {
    return this.listAccounts.execute({ tenantId: principal.tenantId, ...query });
  }

  /** The posted balance as of any past time (default now), exact, from entries and snapshots. */
  @Get(':account/balance')
  balance(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(balanceQuerySchema, 'query')) query: z.output<typeof balanceQuerySchema>,
  ) {
    return this.getBalance.execute({ tenantId: principal.tenantId, account, asOf: query.asOf });
  }

  @Post()
  @Roles('admin')
  @Audited('account.create')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(createAccountSchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createAccountSchema)) body: CreateAccountRequest,
  ): Promise<AccountView> {
    return this.createAccount.execute({ tenantId: principal.tenantId, request: body });
  }

  @Get(':account')
  get(@CurrentPrincipal() principal: Principal, @Param('account') account: string): Promise<AccountView> {
    return this.getAccount.execute({ tenantId: principal.tenantId, account });
  }

  /** Newest first, each with the account's posted balance right after it. */
  @Get(':account/entries')
  entries(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listEntries.execute({ tenantId: principal.tenantId, account, ...query });
  }
}
