import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { CLAIM_MESSAGE, GET_MESSAGE, type InboxRow, RECORD_TRANSACTION } from './inbox.sql';

export interface MessageKey {
  tenantId: string;
  sourceId: string;
  messageId: string;
}

/** Received messages; every method runs in the current transaction (the posting's). */
@Injectable()
export class InboxRepository {
  constructor(private readonly db: Database) {}

  /** True when this call recorded the message; false when it had been received already. */
  async claim(key: MessageKey, type: string, status: InboxRow['status']): Promise<boolean> {
    return (await this.db.query(CLAIM_MESSAGE, { ...key, type, status })).length === 1;
  }

  async recordTransaction(key: MessageKey, transactionId: string): Promise<void> {
    await this.db.query(RECORD_TRANSACTION, { ...key, transactionId });
  }

  async get(key: MessageKey): Promise<InboxRow | undefined> {
    const [row] = await this.db.query(GET_MESSAGE, key);
    return row;
  }
}
