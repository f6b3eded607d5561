import { Injectable } from '@nestjs/common';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { newSigningSecret } from '@ledger/outbox';
import type { InboundMappings } from './inbound-mapping';
import { InboundSourceRepository, type SourceRow } from './inbound-source.repository';

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
    createdAt: row.createdAt.toISOString(),
  };
}

/** A gateway that will send signed messages; the secret (shown once) is what it signs them with. */
@Injectable()
export class CreateInboundSourceUseCase {
  constructor(private readonly sources: InboundSourceRepository) {}

  async execute(command: {
    tenantId: string;
    name: string;
    mappings: InboundMappings;
  }): Promise<InboundSourceView & { secret: string }> {
    const secret = newSigningSecret();
    const row = await this.sources.create({
      tenantId: command.tenantId,
      id: newId(),
      name: command.name,
      secret,
      mappings: command.mappings,
    });
    if (!row)
      throw new DomainError('VALIDATION_FAILED', `an inbound source named ${command.name} exists`, {
        fields: [{ path: 'name', message: 'already taken' }],
      });
    return { ...sourceView(row), secret };
  }
}

@Injectable()
export class ListInboundSourcesUseCase {
  constructor(private readonly sources: InboundSourceRepository) {}

  async execute(command: { tenantId: string }): Promise<{ data: InboundSourceView[] }> {
    return { data: (await this.sources.list(command.tenantId, INBOUND_SOURCES_MAX)).map(sourceView) };
  }
}
