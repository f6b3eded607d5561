import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { InboundMappings } from './inbound-mapping';
import {
  CLAIM_MESSAGE,
  FIND_SOURCE_BY_ID,
  GET_MESSAGE,
  INSERT_SOURCE,
  LIST_SOURCES,
  RECORD_TRANSACTION,
} from './inbox.sql';

export interface SourceRow {
  tenant_id: string;
  id: string;
  name: string;
  mappings: InboundMappings;
  created_at: Date;
}

export interface InboxRow {
  message_id: string;
  type: string;
  status: 'posted' | 'ignored';
  transaction_id: string | null;
  received_at: Date;
}

export interface MessageKey {
  tenantId: string;
  sourceId: string;
  messageId: string;
}

@Injectable()
export class InboxRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when the tenant already has a source of that name. */
  async createSource(
    tenantId: string,
    id: string,
    name: string,
    secret: string,
    mappings: InboundMappings,
  ): Promise<SourceRow | undefined> {
    return (
      await this.db.executor.query<SourceRow>(INSERT_SOURCE, [tenantId, id, name, secret, JSON.stringify(mappings)])
    )[0];
  }

  listSources(tenantId: string, limit: number): Promise<SourceRow[]> {
    return this.db.executor.query<SourceRow>(LIST_SOURCES, [tenantId, limit]);
  }

  async findSource(id: string): Promise<(SourceRow & { secret: string }) | undefined> {
    return (await this.db.executor.query<SourceRow & { secret: string }>(FIND_SOURCE_BY_ID, [id]))[0];
  }

  /** True when this call recorded the message; false when it had been received already. */
  async claim(key: MessageKey, type: string, status: InboxRow['status']): Promise<boolean> {
    return (
      (await this.db.executor.query(CLAIM_MESSAGE, [key.tenantId, key.sourceId, key.messageId, type, status]))
        .length === 1
    );
  }

  async recordTransaction(key: MessageKey, transactionId: string): Promise<void> {
    await this.db.executor.query(RECORD_TRANSACTION, [key.tenantId, key.sourceId, key.messageId, transactionId]);
  }

  async get(key: MessageKey): Promise<InboxRow | undefined> {
    return (await this.db.executor.query<InboxRow>(GET_MESSAGE, [key.tenantId, key.sourceId, key.messageId]))[0];
  }
}
