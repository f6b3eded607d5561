import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import assert from 'node:assert/strict';
import {
  type ConversionAmounts,
  POSITION_ACCOUNT_PREFIX,
  convert,
  convertedAmountProblem,
  positionAccountCode,
  sameRate,
} from '../domain/conversion';
import { GetTransactionUseCase } from '../transactions/get-transaction.use-case';
import { PostingEngine } from '../transactions/posting-engine';
import type { TransactionView } from '../transactions/transaction.view';
import { type ConversionMetadata, conversionItem } from './conversion-item';
import { ConversionRepository, type NamedAccount, type Quote } from './conversion.repository';
import type { ConvertRequest } from './conversion.schema';
import { PositionAccounts } from './position-accounts';

export interface ConvertCurrencyCommand {
  tenantId: string;
  /** Who converts (recorded on the transaction). */
  actor: string;
  request: ConvertRequest;
}

export interface ConversionView {
  transaction: TransactionView;
  rate: string;
  rounding: ConvertRequest['rounding'];
  /** Minor units of `to` credited to `to.account`. */
  toAmount: string;
  exactToAmount: string;
  remainder: string;
  quoteId: string | null;
}

export interface ConvertCurrencyResult {
  conversion: ConversionView;
  /** False when the externalRef named a conversion with the same content that already existed. */
  created: boolean;
}

function fieldError(code: 'VALIDATION_FAILED' | 'CURRENCY_MISMATCH', path: string, message: string, details = {}) {
  return new DomainError(code, `${path} ${message}`, { ...details, fields: [{ path, message }] });
}

function viewOf(transaction: TransactionView): ConversionView {
  const recorded = transaction.metadata.conversion as ConversionMetadata;
  return {
    transaction,
    rate: recorded.rate,
    rounding: recorded.rounding,
    toAmount: recorded.to.amount,
    exactToAmount: recorded.exactToAmount,
    remainder: recorded.remainder,
    quoteId: recorded.quoteId,
  };
}

/** The quote's rate, if the quote may be used now by this request; throws why not. */
function rateFromQuote(quote: Quote | undefined, request: ConvertRequest, now: Date): string {
  if (quote === undefined) {
    throw new DomainError('NOT_FOUND', `quote ${request.quoteId} not found`, {
      fields: [{ path: 'quoteId', message: 'no such quote' }],
    });
  }
  if (quote.usedByTransactionId !== null) {
    throw new DomainError(
      'QUOTE_ALREADY_USED',
      `quote ${quote.id} was used by transaction ${quote.usedByTransactionId}`,
      {
        quoteId: quote.id,
        transactionId: quote.usedByTransactionId,
      },
    );
  }
  if (quote.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError('QUOTE_EXPIRED', `quote ${quote.id} expired at ${quote.expiresAt.toISOString()}`, {
      quoteId: quote.id,
      expiresAt: quote.expiresAt.toISOString(),
    });
  }
  const mismatch = (path: string, message: string) =>
    new DomainError('QUOTE_MISMATCH', `${path} ${message}`, { quoteId: quote.id, fields: [{ path, message }] });
  if (quote.fromCurrency !== request.from.currency) throw mismatch('from.currency', `must be ${quote.fromCurrency}`);
  if (quote.toCurrency !== request.to.currency) throw mismatch('to.currency', `must be ${quote.toCurrency}`);
  if (request.rate !== undefined && !sameRate(request.rate, quote.rate))
    throw mismatch('rate', `must be the quote's rate ${quote.rate}, or left out`);
  return quote.rate;
}

function amountsOf(request: ConvertRequest, rate: string): ConversionAmounts {
  const amounts = convert({
    fromAmountMinor: request.from.amount,
    fromCurrency: request.from.currency,
    toCurrency: request.to.currency,
    rate,
    rounding: request.rounding,
  });
  const problem = convertedAmountProblem(amounts.toAmountMinor);
  if (problem === 'zero') {
    throw new DomainError('AMOUNT_ROUNDS_TO_ZERO', `from.amount converts to ${amounts.exactToAmount} minor units`, {
      exactToAmount: amounts.exactToAmount,
      fields: [{ path: 'from.amount', message: `converts to 0 ${request.to.currency} (rounded ${request.rounding})` }],
    });
  }
  if (problem === 'too-large') {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'the converted amount is beyond 2^63 - 1 minor units', {
      fields: [{ path: 'from.amount', message: 'converts beyond the largest amount' }],
    });
  }
  return amounts;
}

/** A customer's side: an account of the tenant, in the currency named, not one of the desk's positions. */
function customerAccount(
  byRef: ReadonlyMap<string, NamedAccount>,
  side: 'from' | 'to',
  named: { account: string; currency: string },
): NamedAccount {
  const account = byRef.get(named.account);
  if (account === undefined) {
    throw new DomainError('ACCOUNT_NOT_FOUND', `unknown account ${named.account}`, {
      accounts: [named.account],
      fields: [{ path: `${side}.account`, message: 'no such account' }],
    });
  }
  if (account.code.startsWith(POSITION_ACCOUNT_PREFIX))
    throw fieldError('VALIDATION_FAILED', `${side}.account`, 'is an FX position account, not a side of a conversion');
  if (account.currency !== named.currency) {
    throw fieldError('CURRENCY_MISMATCH', `${side}.currency`, `is not the currency of ${account.code}`, {
      account: account.code,
      accountCurrency: account.currency,
      entryCurrency: named.currency,
    });
  }
  return account;
}

/**
 * One conversion: checks everything that refuses it before writing, then posts its four entries through
 * the posting engine (limits, journal, outbox as any posting) and records it, all in one transaction.
 */
@Injectable()
export class ConvertCurrencyUseCase {
  constructor(
    private readonly db: Database,
    private readonly conversions: ConversionRepository,
    private readonly positions: PositionAccounts,
    private readonly engine: PostingEngine,
    private readonly getTransaction: GetTransactionUseCase,
  ) {}

  async execute({ tenantId, actor, request }: ConvertCurrencyCommand): Promise<ConvertCurrencyResult> {
    const now = new Date();
    return this.db.transaction('read committed', async () => {
      const positions = [positionAccountCode(request.from.currency), positionAccountCode(request.to.currency)];
      const named = await this.conversions.accountsByRef(tenantId, [
        request.from.account,
        request.to.account,
        ...positions,
      ]);
      const from = customerAccount(named, 'from', request.from);
      const to = customerAccount(named, 'to', request.to);
      const quote =
        request.quoteId === undefined ? undefined : await this.conversions.lockQuote(tenantId, request.quoteId);
      const rate = request.quoteId === undefined ? request.rate! : rateFromQuote(quote, request, now);
      const amounts = amountsOf(request, rate);
      await this.positions.ensure(
        tenantId,
        [request.from.currency, request.to.currency],
        new Set(positions.filter((code) => named.has(code))),
      );
      const item = conversionItem(
        {
          from: { account: from.code, currency: from.currency, amountMinor: request.from.amount },
          to: { account: to.code, currency: to.currency },
          rate,
          rounding: request.rounding,
          amounts,
          quoteId: quote?.id ?? null,
          externalRef: request.externalRef ?? null,
          description: request.description ?? null,
          request,
        },
        actor,
        now,
      );
      const [result] = await this.engine.write(tenantId, [item]);
      if (result!.status === 'error') throw result!.error;
      if (result!.status === 'exists') {
        const existing = await this.getTransaction.execute({ tenantId, id: result!.transactionId });
        return { conversion: viewOf(existing), created: false };
      }
      await this.conversions.insertConversion(tenantId, {
        transactionId: item.id,
        fromCurrency: from.currency,
        toCurrency: to.currency,
        fromAmountMinor: request.from.amount,
        toAmountMinor: amounts.toAmountMinor,
        rate,
        rounding: request.rounding,
        quoteId: quote?.id ?? null,
      });
      if (quote !== undefined) {
        // Locked since it was read: nobody else can have used it meanwhile.
        assert.ok(await this.conversions.useQuote(tenantId, quote.id, item.id, now), 'a locked, unused quote is used');
      }
      return { conversion: viewOf(result!.transaction), created: true };
    });
  }
}
