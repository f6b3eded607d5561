import { Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { CreateInboundSourceUseCase, ListInboundSourcesUseCase } from './inbound-sources.use-cases';
import { InboundSourceRepository } from './inbound-source.repository';
import { InboxRepository } from './inbox.repository';
import { ReceiveInboundMessageUseCase } from './receive-inbound-message.use-case';

@Module({
  imports: [LedgerModule],
  providers: [
    InboxRepository,
    InboundSourceRepository,
    CreateInboundSourceUseCase,
    ListInboundSourcesUseCase,
    ReceiveInboundMessageUseCase,
  ],
  exports: [CreateInboundSourceUseCase, ListInboundSourcesUseCase, ReceiveInboundMessageUseCase],
})
export class InboxModule {}
