import { Injectable } from '@nestjs/common';
import type { PaymentConnector } from './connector';
import type { ConnectorRow } from './connectors.sql';
import { HttpConnector } from './http-connector';

/** The implementation of a registered connector. One kind today: the documented HTTP contract. */
@Injectable()
export class ConnectorFactory {
  for(row: ConnectorRow): PaymentConnector {
    return new HttpConnector({
      baseUrl: row.base_url,
      secret: row.secret,
      webhookSecret: row.webhook_secret,
      requestTimeoutMs: row.request_timeout_ms,
    });
  }
}
