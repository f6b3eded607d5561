// Inbound sources and the inbox of messages received from them.

export const SOURCE_COLUMNS = `tenant_id, id, name, mappings, created_at`;

export const INSERT_SOURCE = `
INSERT INTO inbound_sources (tenant_id, id, name, secret, mappings)
VALUES ($1, $2, $3, $4, $5::jsonb)
ON CONFLICT (tenant_id, name) DO NOTHING
RETURNING ${SOURCE_COLUMNS}`;

export const LIST_SOURCES = `SELECT ${SOURCE_COLUMNS} FROM inbound_sources WHERE tenant_id = $1 ORDER BY name LIMIT $2`;

/** The public endpoint knows only the source id; it names the tenant. */
export const FIND_SOURCE_BY_ID = `SELECT ${SOURCE_COLUMNS}, secret FROM inbound_sources WHERE id = $1`;

/** Claims the message id; no row back means it was received before (or is being received right now). */
export const CLAIM_MESSAGE = `
INSERT INTO inbox_messages (tenant_id, source_id, message_id, type, status)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (tenant_id, source_id, message_id) DO NOTHING
RETURNING message_id`;

export const GET_MESSAGE = `
SELECT message_id, type, status, transaction_id, received_at FROM inbox_messages
 WHERE tenant_id = $1 AND source_id = $2 AND message_id = $3`;

export const RECORD_TRANSACTION = `
UPDATE inbox_messages SET transaction_id = $4 WHERE tenant_id = $1 AND source_id = $2 AND message_id = $3`;
