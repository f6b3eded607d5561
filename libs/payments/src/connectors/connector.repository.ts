import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import {
  type ConnectorRow,
  FIND_CONNECTOR,
  GET_CONNECTOR,
  INSERT_CONNECTOR,
  LIST_CONNECTORS,
  type NewConnectorParams,
} from './connectors.sql';

/** The tenant's payment connectors. */
@Injectable()
export class ConnectorRepository {
  constructor(private readonly db: Database) {}

  /** False when the tenant already has a connector of that name. */
  async insert(connector: NewConnectorParams): Promise<boolean> {
    return (await this.db.query(INSERT_CONNECTOR, connector)).length === 1;
  }

  async list(tenantId: string, limit: number): Promise<ConnectorRow[]> {
    return this.db.query(LIST_CONNECTORS, { tenantId, limit });
  }

  async get(tenantId: string, idOrName: string): Promise<ConnectorRow | undefined> {
    const [row] = await this.db.query(GET_CONNECTOR, { tenantId, idOrName });
    return row;
  }

  /** Any tenant's connector by its id alone (the webhook endpoint's lookup). */
  async find(id: string): Promise<ConnectorRow | undefined> {
    const [row] = await this.db.query(FIND_CONNECTOR, { id });
    return row;
  }
}
