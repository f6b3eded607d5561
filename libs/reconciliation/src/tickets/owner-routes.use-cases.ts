import { Injectable } from '@nestjs/common';
import { Database, decodeCursor, pageOf } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import type { DiscrepancyKind } from '../domain/finding';
import type { OwnerRoute } from '../domain/routing';
import { OwnerRouteRepository, type StoredOwnerRoute } from './owner-route.repository';

/** An owner route as the API answers it: the minimum amount in minor units as a string. */
export interface OwnerRouteView {
  id: string;
  priority: number;
  kind: DiscrepancyKind | null;
  source: string | null;
  accountPrefix: string | null;
  minAmount: string | null;
  owner: string;
}

export function ownerRouteViewOf(route: StoredOwnerRoute): OwnerRouteView {
  return {
    id: route.id,
    priority: route.priority,
    kind: route.kind,
    source: route.source,
    accountPrefix: route.accountPrefix,
    minAmount: route.minAmountMinor?.toString() ?? null,
    owner: route.owner,
  };
}

function notFound(id: string): DomainError {
  return new DomainError('NOT_FOUND', `owner route ${id} not found`);
}

// A cursor is the last rule's priority and id: the list is in the order the rules apply.
const CURSOR_PART = /^(?:\d{1,7}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The tenant's rules in the order they apply: lowest priority first. */
@Injectable()
export class ListOwnerRoutesUseCase {
  constructor(private readonly routes: OwnerRouteRepository) {}

  async execute(query: {
    tenantId: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: OwnerRouteView[]; nextCursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodeAfter(query.cursor);
    const rows = await this.routes.page(query.tenantId, after, query.limit + 1);
    const page = pageOf(rows, query.limit, (last) => [String(last.priority), last.id]);
    return { data: page.data.map(ownerRouteViewOf), nextCursor: page.nextCursor };
  }
}

function decodeAfter(cursor: string): { priority: number; id: string } {
  const parts = decodeCursor(cursor, CURSOR_PART);
  if (parts.length !== 2 || !/^\d+$/.test(parts[0]!)) {
    throw new DomainError('VALIDATION_FAILED', 'cursor is not one this list gave out', {
      fields: [{ path: 'cursor', message: 'invalid cursor' }],
    });
  }
  return { priority: Number(parts[0]), id: parts[1]!.toLowerCase() };
}

/** Changes the given fields of a rule; a criterion set to null no longer restricts the rule. */
@Injectable()
export class UpdateOwnerRouteUseCase {
  constructor(
    private readonly db: Database,
    private readonly routes: OwnerRouteRepository,
  ) {}

  async execute(command: { tenantId: string; id: string; change: Partial<OwnerRoute> }): Promise<OwnerRouteView> {
    const updated = await this.db.transaction('read committed', () =>
      this.routes.update(command.tenantId, command.id, command.change),
    );
    if (updated === undefined) throw notFound(command.id);
    return ownerRouteViewOf(updated);
  }
}

/** Removes a rule; tickets it routed keep their owner, the next new ones follow the remaining rules. */
@Injectable()
export class DeleteOwnerRouteUseCase {
  constructor(
    private readonly db: Database,
    private readonly routes: OwnerRouteRepository,
  ) {}

  async execute(command: { tenantId: string; id: string }): Promise<void> {
    const deleted = await this.db.transaction('read committed', () => this.routes.delete(command.tenantId, command.id));
    if (!deleted) throw notFound(command.id);
  }
}
