import { Injectable } from '@nestjs/common';
import { Database, decodeIdCursor, pageOf } from '@ledger/db';
import { isUuid, newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { DiscrepancyKind } from './domain/finding';
import type { OwnerRoute } from './domain/routing';
import { RunRepository, type RunView } from './run.repository';
import { OwnerRouteRepository } from './tickets/owner-route.repository';

@Injectable()
export class GetRunUseCase {
  constructor(private readonly runs: RunRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<RunView> {
    const run = isUuid(command.id) ? await this.runs.find(command.tenantId, command.id.toLowerCase()) : undefined;
    if (run === undefined) throw new DomainError('NOT_FOUND', `reconciliation run ${command.id} not found`);
    return run;
  }
}

@Injectable()
export class ListRunsUseCase {
  constructor(private readonly runs: RunRepository) {}

  async execute(command: {
    tenantId: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: RunView[]; nextCursor: string | null }> {
    const beforeId = command.cursor === undefined ? undefined : decodeIdCursor(command.cursor);
    const rows = await this.runs.list(command.tenantId, beforeId, command.limit + 1);
    return pageOf(rows, command.limit, (last) => [last.id]);
  }
}

export interface CreateOwnerRouteCommand {
  tenantId: string;
  priority: number;
  kind?: DiscrepancyKind;
  source?: string;
  accountPrefix?: string;
  minAmountMinor?: bigint;
  owner: string;
}

/** A routing rule: tickets matching every given criterion go to `owner`; lowest priority first. */
@Injectable()
export class CreateOwnerRouteUseCase {
  constructor(
    private readonly db: Database,
    private readonly routes: OwnerRouteRepository,
  ) {}

  async execute(command: CreateOwnerRouteCommand) {
    const id = newId();
    const route: OwnerRoute = {
      priority: command.priority,
      kind: command.kind ?? null,
      source: command.source ?? null,
      accountPrefix: command.accountPrefix ?? null,
      minAmountMinor: command.minAmountMinor ?? null,
      owner: command.owner,
    };
    await this.db.transaction('read committed', () => this.routes.insert(command.tenantId, id, route));
    return {
      id,
      priority: route.priority,
      kind: route.kind,
      source: route.source,
      accountPrefix: route.accountPrefix,
      minAmount: route.minAmountMinor?.toString() ?? null,
      owner: route.owner,
    };
  }
}
