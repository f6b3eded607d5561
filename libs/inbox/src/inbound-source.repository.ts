import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { InboundMappings } from './inbound-mapping';

export interface SourceRow {
  tenantId: string;
  id: string;
  name: string;
  mappings: InboundMappings;
  createdAt: Date;
}

const SOURCE_ROW = { tenantId: true, id: true, name: true, mappings: true, createdAt: true } as const;

/** The mappings were validated (inboundMappingsSchema) before they were stored. */
function sourceRow<Row extends { mappings: unknown }>(row: Row): Row & { mappings: InboundMappings } {
  return row as Row & { mappings: InboundMappings };
}

/** Inbound sources, through Prisma Client. */
@Injectable()
export class InboundSourceRepository {
  constructor(private readonly db: Database) {}

  /**
   * Undefined when the tenant already has a source of that name. `skipDuplicates` is INSERT ... ON
   * CONFLICT DO NOTHING: a taken name fails no statement, so the request's transaction stays usable.
   */
  async create(source: {
    tenantId: string;
    id: string;
    name: string;
    secret: string;
    mappings: InboundMappings;
  }): Promise<SourceRow | undefined> {
    const [row] = await this.db.prisma.inboundSource.createManyAndReturn({
      data: [source],
      skipDuplicates: true,
      select: SOURCE_ROW,
    });
    return row === undefined ? undefined : sourceRow(row);
  }

  async list(tenantId: string, limit: number): Promise<SourceRow[]> {
    const rows = await this.db.prisma.inboundSource.findMany({
      where: { tenantId },
      orderBy: { name: 'asc' },
      take: limit,
      select: SOURCE_ROW,
    });
    return rows.map(sourceRow);
  }

  /** The public endpoint knows only the source id; it names the tenant. */
  async findWithSecret(id: string): Promise<(SourceRow & { secret: string }) | undefined> {
    const row = await this.db.prisma.inboundSource.findFirst({
      where: { id },
      select: { ...SOURCE_ROW, secret: true },
    });
    return row === null ? undefined : sourceRow(row);
  }
}
