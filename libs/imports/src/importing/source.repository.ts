import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { CsvProfile } from '../csv/csv-profile';

/** A statement source as stored: its ledger account is named by id (the ledger knows the rest). */
export interface SourceRecord {
  id: string;
  name: string;
  format: string | null;
  charset: string | null;
  accountId: string;
  createdAt: Date;
}

const SOURCE = { id: true, name: true, format: true, charset: true, accountId: true, createdAt: true } as const;

/** Statement sources and the tenants' own CSV profiles: plain rows, read and written with Prisma Client. */
@Injectable()
export class SourceRepository {
  constructor(private readonly db: Database) {}

  async findByName(tenantId: string, name: string): Promise<SourceRecord | undefined> {
    const row = await this.db.prisma.statementSource.findUnique({
      where: { tenantId_name: { tenantId, name } },
      select: SOURCE,
    });
    return row ?? undefined;
  }

  /** By name. */
  list(tenantId: string, limit: number): Promise<SourceRecord[]> {
    return this.db.prisma.statementSource.findMany({
      where: { tenantId },
      select: SOURCE,
      orderBy: { name: 'asc' },
      take: limit,
    });
  }

  findByIds(tenantId: string, ids: readonly string[]): Promise<SourceRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.prisma.statementSource.findMany({ where: { tenantId, id: { in: [...ids] } }, select: SOURCE });
  }

  /**
   * Undefined when the tenant already has a source of this name. Skipping the duplicate (ON CONFLICT DO
   * NOTHING) rather than failing on it keeps an enclosing transaction usable for the answer.
   */
  async insert(
    tenantId: string,
    source: { id: string; name: string; accountId: string; format: string | null; charset: string | null },
  ): Promise<Date | undefined> {
    const rows = await this.db.prisma.statementSource.createManyAndReturn({
      data: [{ tenantId, ...source }],
      skipDuplicates: true,
      select: { createdAt: true },
    });
    return rows[0]?.createdAt;
  }

  async findCsvProfile(tenantId: string, name: string): Promise<unknown> {
    const row = await this.db.prisma.csvProfile.findUnique({
      where: { tenantId_name: { tenantId, name } },
      select: { definition: true },
    });
    return row?.definition ?? undefined;
  }

  /** Saving a name again replaces its definition (one INSERT ... ON CONFLICT DO UPDATE). */
  async saveCsvProfile(tenantId: string, name: string, definition: CsvProfile): Promise<void> {
    await this.db.prisma.csvProfile.upsert({
      where: { tenantId_name: { tenantId, name } },
      create: { tenantId, name, definition },
      update: { definition },
      select: { name: true },
    });
  }
}
