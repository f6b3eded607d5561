import { sql } from '@ledger/db';

// The inbox of messages received from inbound sources. Hand-written: the claim is the dedupe of the
// posting path and runs in the posting's transaction. The sources are in inbound-source.repository.ts.

export interface InboxRow {
  message_id: string;
  type: string;
  status: 'posted' | 'ignored';
  transaction_id: string | null;
  received_at: Date;
}

interface MessageKeyParams {
  tenantId: string;
  sourceId: string;
  messageId: string;
}

/** Claims the message id; no row back means it was received before (or is being received right now). */
export const CLAIM_MESSAGE = sql<
  MessageKeyParams & { type: string; status: InboxRow['status'] },
  { message_id: string }
>(`
INSERT INTO inbox_messages (tenant_id, source_id, message_id, type, status)
VALUES (:tenantId, :sourceId, :messageId, :type, :status)
ON CONFLICT (tenant_id, source_id, message_id) DO NOTHING
RETURNING message_id`);

export const GET_MESSAGE = sql<MessageKeyParams, InboxRow>(`
SELECT message_id, type, status, transaction_id, received_at FROM inbox_messages
 WHERE tenant_id = :tenantId AND source_id = :sourceId AND message_id = :messageId`);

export const RECORD_TRANSACTION = sql<MessageKeyParams & { transactionId: string }>(`
UPDATE inbox_messages SET transaction_id = :transactionId
 WHERE tenant_id = :tenantId AND source_id = :sourceId AND message_id = :messageId`);
