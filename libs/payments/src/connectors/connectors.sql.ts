import { sql } from '@ledger/db';

// The tenant's payment connectors. Hand-written like the rest of this lib (see orders.sql.ts).

export interface ConnectorRow {
  tenant_id: string;
  id: string;
  name: string;
  kind: 'http';
  base_url: string;
  secret: string;
  webhook_secret: string;
  clearing_account_id: string;
  clearing_account_code: string;
  currency: string;
  request_timeout_ms: number;
  submit_deadline_seconds: number;
  settle_deadline_seconds: number;
  created_at: Date;
}

const CONNECTOR_COLUMNS = `c.tenant_id, c.id, c.name, c.kind, c.base_url, c.secret, c.webhook_secret,
       c.clearing_account_id, a.code AS clearing_account_code, a.currency::text AS currency, c.request_timeout_ms,
       c.submit_deadline_seconds, c.settle_deadline_seconds, c.created_at`;
const WITH_ACCOUNT = `payment_connectors c
  JOIN accounts a ON a.tenant_id = c.tenant_id AND a.id = c.clearing_account_id`;

export interface NewConnectorParams {
  tenantId: string;
  id: string;
  name: string;
  kind: 'http';
  baseUrl: string;
  secret: string;
  webhookSecret: string;
  clearingAccountId: string;
  requestTimeoutMs: number;
  submitDeadlineSeconds: number;
  settleDeadlineSeconds: number;
  actor: string;
}

/** No row back: the tenant has a connector of that name (nothing failed, the transaction stays usable). */
export const INSERT_CONNECTOR = sql<NewConnectorParams, { id: string }>(`
INSERT INTO payment_connectors (tenant_id, id, name, kind, base_url, secret, webhook_secret, clearing_account_id,
                                request_timeout_ms, submit_deadline_seconds, settle_deadline_seconds, actor)
VALUES (:tenantId, :id, :name, :kind, :baseUrl, :secret, :webhookSecret, :clearingAccountId, :requestTimeoutMs,
        :submitDeadlineSeconds, :settleDeadlineSeconds, :actor)
ON CONFLICT (tenant_id, name) DO NOTHING
RETURNING id`);

export const LIST_CONNECTORS = sql<{ tenantId: string; limit: number }, ConnectorRow>(`
SELECT ${CONNECTOR_COLUMNS} FROM ${WITH_ACCOUNT}
 WHERE c.tenant_id = :tenantId ORDER BY c.name LIMIT :limit`);

/** By id or by name: the API names a connector either way. */
export const GET_CONNECTOR = sql<{ tenantId: string; idOrName: string }, ConnectorRow>(`
SELECT ${CONNECTOR_COLUMNS} FROM ${WITH_ACCOUNT}
 WHERE c.tenant_id = :tenantId AND (c.name = :idOrName OR c.id::text = lower(:idOrName))`);

/** The webhook endpoint knows only the connector id; the connector names the tenant. */
export const FIND_CONNECTOR = sql<{ id: string }, ConnectorRow>(`
SELECT ${CONNECTOR_COLUMNS} FROM ${WITH_ACCOUNT} WHERE c.id = :id`);
