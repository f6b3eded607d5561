import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { DiscrepancyKind } from '../domain/finding';
import type { OwnerRoute } from '../domain/routing';

/** Routes read per run; a tenant with more is far past what anyone can order by priority. */
export const OWNER_ROUTES_MAX = 1_000;

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
}
