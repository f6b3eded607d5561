import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  type ConversionView,
  ConvertCurrencyUseCase,
  type ConvertRequest,
  CreateQuoteUseCase,
  type CreateQuoteRequest,
  GetPositionsUseCase,
  GetQuoteUseCase,
  convertSchema,
  createQuoteSchema,
} from '@ledger/ledger';
import type { FastifyReply } from 'fastify';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { conversionView, positionsView, quoteView } from '../openapi/views/conversions.views';

const CONVERSION_EXAMPLE = {
  from: { account: 'liabilities:wallets:alice:eur', amount: '10000', currency: 'EUR' },
  to: { account: 'liabilities:wallets:alice:usd', currency: 'USD' },
  rate: '1.08230',
  rounding: 'half-even',
  externalRef: 'fx-1042',
};

@ApiTags('conversions')
@Controller('v1/conversions')
export class ConversionsController {
  constructor(
    private readonly convert: ConvertCurrencyUseCase,
    private readonly createQuote: CreateQuoteUseCase,
    private readonly getQuote: GetQuoteUseCase,
    private readonly getPositions: GetPositionsUseCase,
  ) {}

  @Post()
  @Endpoint({
    operationId: 'convertCurrency',
    summary: 'Convert between currencies',
    description:
      'Posts one transaction of four entries: debit `from.account`, credit `fx:position:<from>`, debit ' +
      '`fx:position:<to>`, credit `to.account` (position accounts are made on first use and may go below zero). ' +
      'The `to` amount is `from.amount` times `rate`, scaled by the currency exponents and rounded as asked ' +
      "(`half-even` by default). With `quoteId`, the quote's rate (used once, until it expires). Every limit of " +
      'a posting applies; an externalRef already converted with the same content answers that conversion.',
    access: ['poster'],
    idempotency: 'required',
    body: convertSchema,
    bodyExample: CONVERSION_EXAMPLE,
    answer: { status: 201, description: 'The conversion.', schema: conversionView, existing: true },
    errors: [
      'ACCOUNT_NOT_FOUND',
      'NOT_FOUND',
      'CURRENCY_MISMATCH',
      'INSUFFICIENT_FUNDS',
      'AMOUNT_OUT_OF_RANGE',
      'AMOUNT_ROUNDS_TO_ZERO',
      'QUOTE_EXPIRED',
      'QUOTE_ALREADY_USED',
      'QUOTE_MISMATCH',
      'EXTERNAL_REF_CONFLICT',
    ],
  })
  async post(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(convertSchema)) body: ConvertRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<ConversionView> {
    const result = await this.convert.execute({ tenantId: principal.tenantId, actor: principal.actor, request: body });
    if (!result.created) response.header('Ledger-Existing', 'true');
    return result.conversion;
  }

  @Post('quotes')
  @Endpoint({
    operationId: 'createConversionQuote',
    summary: 'Quote a conversion rate',
    description:
      'Holds `rate` for `from` to `to` during `ttlSeconds` (at most 3600). A conversion with its `quoteId` uses ' +
      'the rate; the quote is then used and answers any other conversion `409 QUOTE_ALREADY_USED`.',
    access: ['poster'],
    idempotency: 'required',
    body: createQuoteSchema,
    bodyExample: { from: { currency: 'EUR' }, to: { currency: 'USD' }, rate: '1.08230', ttlSeconds: 30 },
    answer: { status: 201, description: 'The quote.', schema: quoteView },
  })
  quote(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createQuoteSchema)) body: CreateQuoteRequest,
  ) {
    return this.createQuote.execute({ tenantId: principal.tenantId, actor: principal.actor, request: body });
  }

  @Get('quotes/:id')
  @Endpoint({
    operationId: 'getConversionQuote',
    summary: 'Get a quote',
    description: 'With the conversion that used it, if any.',
    access: 'any-key',
    answer: { status: 200, description: 'The quote.', schema: quoteView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getQuote.execute({ tenantId: principal.tenantId, id });
  }

  @Get('positions')
  @Endpoint({
    operationId: 'getConversionPositions',
    summary: 'FX positions',
    description:
      'Per direction of conversion: amounts bought and sold, the volume-weighted rate and the open position; per ' +
      'currency, the balance of its `fx:position:<CCY>` account.',
    access: 'any-key',
    answer: { status: 200, description: 'The position report.', schema: positionsView },
  })
  positions(@CurrentPrincipal() principal: Principal) {
    return this.getPositions.execute({ tenantId: principal.tenantId });
  }
}
