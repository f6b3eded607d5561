import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { newId } from '@ledger/ids';
import { AccountReader } from '@ledger/ledger';
import type { RegisterConnectorRequest } from './connector.schema';
import { ConnectorRepository } from './connector.repository';
import { type ConnectorView, connectorView } from './connector.view';

/** Connectors a tenant may register: each is a provider its orders can go through. */
export const CONNECTORS_MAX = 50;

/** Registers a provider; its orders reserve money toward its clearing account (in that account's currency). */
@Injectable()
export class RegisterConnectorUseCase {
  constructor(
    private readonly connectors: ConnectorRepository,
    private readonly accounts: AccountReader,
  ) {}

  async execute(command: {
    tenantId: string;
    actor: string;
    request: RegisterConnectorRequest;
  }): Promise<ConnectorView> {
    const { tenantId, request } = command;
    const clearing = await this.accounts.findByRef(tenantId, request.clearingAccount);
    if (clearing === undefined) {
      throw new DomainError('ACCOUNT_NOT_FOUND', `account ${request.clearingAccount} not found`, {
        fields: [{ path: 'clearingAccount', message: 'no such account' }],
      });
    }
    if ((await this.connectors.list(tenantId, CONNECTORS_MAX)).length >= CONNECTORS_MAX) {
      throw new DomainError('VALIDATION_FAILED', `a tenant has at most ${CONNECTORS_MAX} connectors`);
    }
    const id = newId();
    const inserted = await this.connectors.insert({
      tenantId,
      id,
      name: request.name,
      kind: request.kind,
      baseUrl: request.baseUrl,
      secret: request.secret,
      webhookSecret: request.webhookSecret,
      clearingAccountId: clearing.id,
      requestTimeoutMs: request.requestTimeoutMs,
      submitDeadlineSeconds: request.submitDeadlineSeconds,
      settleDeadlineSeconds: request.settleDeadlineSeconds,
      actor: command.actor,
    });
    if (!inserted) {
      throw new DomainError('VALIDATION_FAILED', `a connector named ${request.name} exists`, {
        fields: [{ path: 'name', message: 'already taken' }],
      });
    }
    return connectorView((await this.connectors.get(tenantId, id))!);
  }
}

@Injectable()
export class ListConnectorsUseCase {
  constructor(private readonly connectors: ConnectorRepository) {}

  async execute(command: { tenantId: string }): Promise<{ data: ConnectorView[] }> {
    return { data: (await this.connectors.list(command.tenantId, CONNECTORS_MAX)).map(connectorView) };
  }
}
