import type { ConnectorRow } from './connectors.sql';

/** A connector as the API shows it: never its secrets. */
export interface ConnectorView {
  id: string;
  name: string;
  kind: 'http';
  baseUrl: string;
  clearingAccount: string;
  currency: string;
  requestTimeoutMs: number;
  submitDeadlineSeconds: number;
  settleDeadlineSeconds: number;
  /** Where the provider sends its signed webhooks. */
  webhookEndpoint: string;
  createdAt: string;
}

export function connectorView(row: ConnectorRow): ConnectorView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    baseUrl: row.base_url,
    clearingAccount: row.clearing_account_code,
    currency: row.currency,
    requestTimeoutMs: row.request_timeout_ms,
    submitDeadlineSeconds: row.submit_deadline_seconds,
    settleDeadlineSeconds: row.settle_deadline_seconds,
    webhookEndpoint: `/v1/connectors/${row.id}/webhooks`,
    createdAt: row.created_at.toISOString(),
  };
}
