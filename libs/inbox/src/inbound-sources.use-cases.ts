import { Injectable } from '@nestjs/common';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { newSigningSecret } from '@ledger/outbox';
import type { InboundMappings } from './inbound-mapping';
import { InboxRepository, type SourceRow } from './inbox.repository';

export const INBOUND_SOURCES_MAX = 100;

export interface InboundSourceView {
  id: string;
  name: string;
  /** Where the gateway sends its signed messages. */
  endpoint: string;
  mappings: InboundMappings;
  createdAt: string;
}

function sourceView(row: SourceRow): InboundSourceView {
  return {
    id: row.id,
    name: row.name,
    endpoint: `/v1/inbound/${row.id}`,
    mappings: row.mappings,
    createdAt: row.created_at.toISOString(),
  };
}

/** A gateway that will send signed messages; the secret (shown once) is what it signs them with. */
@Injectable()
export class CreateInboundSourceUseCase {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(command: {
    tenantId: string;
    name: string;
    mappings: InboundMappings;
  }): Promise<InboundSourceView & { secret: string }> {
    const secret = newSigningSecret();
    const row = await this.inbox.createSource(command.tenantId, newId(), command.name, secret, command.mappings);
    if (!row)
      throw new DomainError('VALIDATION_FAILED', `an inbound source named ${command.name} exists`, {
        fields: [{ path: 'name', message: 'already taken' }],
      });
    return { ...sourceView(row), secret };
  }
}

@Injectable()
export class ListInboundSourcesUseCase {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(command: { tenantId: string }): Promise<{ data: InboundSourceView[] }> {
    return { data: (await this.inbox.listSources(command.tenantId, INBOUND_SOURCES_MAX)).map(sourceView) };
  }
}
