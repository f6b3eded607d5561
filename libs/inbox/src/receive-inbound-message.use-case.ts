import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { PostTransactionUseCase, type PostTransactionRequest, postTransactionSchema } from '@ledger/ledger';
import { verifySignature } from '@ledger/outbox';
import { type InboundMessage, type PostingRequestBody, postingRequestOf } from './inbound-mapping';
import { InboundSourceRepository } from './inbound-source.repository';
import { InboxRepository, type MessageKey } from './inbox.repository';

export interface ReceiveInboundCommand {
  sourceId: string;
  /** The `Ledger-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256 of "t.rawBody">` with the source's secret. */
  signature: string | undefined;
  /** The body as received, unparsed. */
  rawBody: Buffer;
  /**
   * Parses and validates the message (the edge's JSON rules); called only once the signature verifies,
   * so that a message for an unknown source, or a forged one, costs no JSON parsing.
   */
  readMessage: (rawBody: Buffer) => InboundMessage;
}

export interface InboundOutcome {
  messageId: string;
  status: 'posted' | 'ignored';
  transactionId: string | null;
  /** True when the message had been received before: nothing was done this time. */
  duplicate: boolean;
}

function validPosting(request: PostingRequestBody): PostTransactionRequest {
  const parsed = postTransactionSchema.safeParse(request);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new DomainError('VALIDATION_FAILED', 'the posting the message maps to is not valid', { fields });
}

/**
 * A signed message from a gateway, deduplicated by its id and turned into a posting by its source's
 * mapping. The inbox row is claimed first and the posting made in the same transaction: a message
 * is posted once however often it is sent (and however many copies arrive at once); a posting that
 * fails (insufficient funds, say) leaves no inbox row, so the gateway's retry is processed afresh.
 */
@Injectable()
export class ReceiveInboundMessageUseCase {
  constructor(
    private readonly db: Database,
    private readonly sources: InboundSourceRepository,
    private readonly inbox: InboxRepository,
    private readonly postTransaction: PostTransactionUseCase,
  ) {}

  async execute(command: ReceiveInboundCommand): Promise<InboundOutcome> {
    const source = isUuid(command.sourceId) ? await this.sources.findWithSecret(command.sourceId) : undefined;
    if (!source) throw new DomainError('NOT_FOUND', `no inbound source ${command.sourceId}`);
    if (
      command.signature === undefined ||
      !verifySignature(
        command.signature,
        command.rawBody.toString('utf8'),
        source.secret,
        Math.floor(Date.now() / 1000),
      )
    ) {
      throw new DomainError('UNAUTHENTICATED', "the Ledger-Signature header does not verify with this source's secret");
    }
    const message = command.readMessage(command.rawBody);
    const key: MessageKey = { tenantId: source.tenantId, sourceId: source.id, messageId: message.id };
    const template = Object.hasOwn(source.mappings, message.type) ? source.mappings[message.type] : undefined;
    return this.db.transaction('read committed', async () => {
      if (!(await this.inbox.claim(key, message.type, template ? 'posted' : 'ignored'))) {
        const seen = (await this.inbox.get(key))!;
        return { messageId: seen.message_id, status: seen.status, transactionId: seen.transaction_id, duplicate: true };
      }
      if (!template) return { messageId: key.messageId, status: 'ignored', transactionId: null, duplicate: false };
      const request = validPosting(postingRequestOf(template, message, source.name));
      const { transaction } = await this.postTransaction.execute({
        tenantId: source.tenantId,
        actor: `inbound:${source.id}`,
        request,
      });
      await this.inbox.recordTransaction(key, transaction.id);
      return { messageId: key.messageId, status: 'posted', transactionId: transaction.id, duplicate: false };
    });
  }
}
