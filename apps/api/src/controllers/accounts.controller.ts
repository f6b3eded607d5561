import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
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
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { accountEntryPage, accountPage, accountView, balanceView } from '../openapi/views/ledger.views';
import { accountsQuerySchema, balanceQuerySchema, pageQuerySchema } from './query.schemas';

@ApiTags('accounts')
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
  @Endpoint({
    operationId: 'listAccounts',
    summary: 'List accounts',
    description: 'Filtered by currency, code prefix or metadata (`metadata={"tier":"gold"}`), oldest first.',
    access: 'any-key',
    query: accountsQuerySchema,
    answer: { status: 200, description: 'A page of accounts.', schema: accountPage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(accountsQuerySchema, 'query')) query: z.output<typeof accountsQuerySchema>,
  ) {
    return this.listAccounts.execute({ tenantId: principal.tenantId, ...query });
  }

  /** The posted balance as of any past time (default now), exact, from entries and snapshots. */
  @Get(':account/balance')
  @Endpoint({
    operationId: 'getAccountBalance',
    summary: "An account's balance at a time",
    description: 'The posted balance from the entries effective at or before `asOf` (default: now), exact.',
    access: 'any-key',
    query: balanceQuerySchema,
    answer: { status: 200, description: 'The balance as of that time.', schema: balanceView },
    errors: ['NOT_FOUND'],
  })
  balance(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(balanceQuerySchema, 'query')) query: z.output<typeof balanceQuerySchema>,
  ) {
    return this.getBalance.execute({ tenantId: principal.tenantId, account, asOf: query.asOf });
  }

  @Post()
  @Audited('account.create')
  @Endpoint({
    operationId: 'createAccount',
    summary: 'Create an account',
    access: ['admin'],
    idempotency: 'required',
    body: createAccountSchema,
    bodyExample: { code: 'liabilities:wallets:alice', currency: 'USD', normalBalance: 'credit', name: 'Alice' },
    answer: { status: 201, description: 'The account, with zero balances.', schema: accountView },
    errors: ['ACCOUNT_CODE_CONFLICT'],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createAccountSchema)) body: CreateAccountRequest,
  ): Promise<AccountView> {
    return this.createAccount.execute({ tenantId: principal.tenantId, request: body });
  }

  @Get(':account')
  @Endpoint({
    operationId: 'getAccount',
    summary: 'Get an account and its balances',
    access: 'any-key',
    answer: { status: 200, description: 'The account.', schema: accountView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('account') account: string): Promise<AccountView> {
    return this.getAccount.execute({ tenantId: principal.tenantId, account });
  }

  /** Newest first, each with the account's posted balance right after it. */
  @Get(':account/entries')
  @Endpoint({
    operationId: 'listAccountEntries',
    summary: "List an account's entries",
    description: "Newest first, each with the account's posted balance right after it.",
    access: 'any-key',
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of entries.', schema: accountEntryPage },
    errors: ['NOT_FOUND'],
  })
  entries(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listEntries.execute({ tenantId: principal.tenantId, account, ...query });
  }
}
