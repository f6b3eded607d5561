import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { DiscrepancyKind } from '../domain/finding';
import type { OwnerRoute } from '../domain/routing';

/** Routes read per run; a tenant with more is far past what anyone can order by priority. */
export const OWNER_ROUTES_MAX = 1_000;

/** A rule with its id, as its tenant's finance team sees and edits it. */
export interface StoredOwnerRoute extends OwnerRoute {
  id: string;
}

const ROUTE_FIELDS = {
  id: true,
  priority: true,
  kind: true,
  source: true,
  accountPrefix: true,
  minAmountMinor: true,
  owner: true,
} as const;

function storedOf(row: { kind: string | null } & Omit<StoredOwnerRoute, 'kind'>): StoredOwnerRoute {
  return { ...row, kind: row.kind as DiscrepancyKind | null };
}

/** The tenants' owner routing rules: plain rows, read and written with Prisma Client. */
@Injectable()
export class OwnerRouteRepository {
  constructor(private readonly db: Database) {}

  /** By priority, at most OWNER_ROUTES_MAX. */
  async list(tenantId: string): Promise<OwnerRoute[]> {
    const rows = await this.db.prisma.ownerRoute.findMany({
      where: { tenantId },
      orderBy: { priority: 'asc' },
      take: OWNER_ROUTES_MAX,
      select: { priority: true, kind: true, source: true, accountPrefix: true, minAmountMinor: true, owner: true },
    });
    return rows.map((row) => ({ ...row, kind: row.kind as DiscrepancyKind | null }));
  }

  async insert(tenantId: string, id: string, route: OwnerRoute): Promise<void> {
    await this.db.prisma.ownerRoute.create({ data: { tenantId, id, ...route }, select: { id: true } });
  }

  /** By priority then id, keyset: the rules after `after`. */
  async page(
    tenantId: string,
    after: { priority: number; id: string } | undefined,
    limit: number,
  ): Promise<StoredOwnerRoute[]> {
    const rows = await this.db.prisma.ownerRoute.findMany({
      where: {
        tenantId,
        ...(after === undefined
          ? {}
          : { OR: [{ priority: { gt: after.priority } }, { priority: after.priority, id: { gt: after.id } }] }),
      },
      orderBy: [{ priority: 'asc' }, { id: 'asc' }],
      take: limit,
      select: ROUTE_FIELDS,
    });
    return rows.map(storedOf);
  }

  async find(tenantId: string, id: string): Promise<StoredOwnerRoute | undefined> {
    const row = await this.db.prisma.ownerRoute.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: ROUTE_FIELDS,
    });
    return row === null ? undefined : storedOf(row);
  }

  /** The rule as changed, or undefined when the tenant has no such rule. */
  async update(tenantId: string, id: string, change: Partial<OwnerRoute>): Promise<StoredOwnerRoute | undefined> {
    const { count } = await this.db.prisma.ownerRoute.updateMany({ where: { tenantId, id }, data: change });
    return count === 0 ? undefined : this.find(tenantId, id);
  }

  /** Whether the tenant had the rule. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.db.prisma.ownerRoute.deleteMany({ where: { tenantId, id } });
    return count > 0;
  }
}
