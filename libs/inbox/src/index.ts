export { InboxModule } from './inbox.module';
export {
  inboundMappingsSchema,
  type InboundMappings,
  type InboundMessage,
  type PostingTemplate,
} from './inbound-mapping';
export {
  CreateInboundSourceUseCase,
  ListInboundSourcesUseCase,
  type InboundSourceView,
} from './inbound-sources.use-cases';
export {
  ReceiveInboundMessageUseCase,
  type InboundOutcome,
  type ReceiveInboundCommand,
} from './receive-inbound-message.use-case';
