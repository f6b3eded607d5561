import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';

@Injectable()
export class HoldRepository {
  constructor(private readonly db: Database) {}

  async findExpired(now: Date, limit: number): Promise<{ tenantId: string; holdId: string }[]> {
    // Oldest expired holds first, across tenants; bounded per run.
    return this.db.prisma.openHold.findMany({
      where: { expiresAt: { lte: now } },
      orderBy: { expiresAt: 'asc' },
      take: limit,
      select: { tenantId: true, holdId: true },
    });
  }
}
