import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { ConversionRepository } from './conversion.repository';
import { type QuoteView, toQuoteView } from './quote.view';

@Injectable()
export class GetQuoteUseCase {
  constructor(private readonly conversions: ConversionRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<QuoteView> {
    const quote = isUuid(command.id)
      ? await this.conversions.findQuote(command.tenantId, command.id.toLowerCase())
      : undefined;
    if (quote === undefined) throw new DomainError('NOT_FOUND', `quote ${command.id} not found`);
    return toQuoteView(quote);
  }
}
