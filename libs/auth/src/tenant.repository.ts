import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';

/** The tenants table, through Prisma Client (ordinary single-row writes and small reads). */
@Injectable()
export class TenantRepository {
  constructor(private readonly db: Database) {}

  async insert(tenant: { id: string; name: string }): Promise<void> {
    await this.db.prisma.tenant.create({ data: tenant, select: { id: true } });
  }

  count(): Promise<number> {
    return this.db.prisma.tenant.count();
  }

  async ids(): Promise<string[]> {
    const rows = await this.db.prisma.tenant.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    return rows.map((row) => row.id);
  }
}
