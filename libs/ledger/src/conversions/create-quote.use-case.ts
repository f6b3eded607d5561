import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { ConversionRepository } from './conversion.repository';
import type { CreateQuoteRequest } from './conversion.schema';
import { type QuoteView, toQuoteView } from './quote.view';

export interface CreateQuoteCommand {
  tenantId: string;
  actor: string;
  request: CreateQuoteRequest;
}

/** Stores a rate for ttlSeconds; a conversion naming the quote uses that rate, once. */
@Injectable()
export class CreateQuoteUseCase {
  constructor(
    private readonly db: Database,
    private readonly conversions: ConversionRepository,
  ) {}

  async execute({ tenantId, actor, request }: CreateQuoteCommand): Promise<QuoteView> {
    const now = new Date();
    return this.db.transaction('read committed', async () => {
      const quote = await this.conversions.insertQuote(tenantId, {
        id: newId(now.getTime()),
        fromCurrency: request.from.currency,
        toCurrency: request.to.currency,
        rate: request.rate,
        actor,
        createdAt: now,
        expiresAt: new Date(now.getTime() + request.ttlSeconds * 1000),
      });
      return toQuoteView(quote);
    });
  }
}
