import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { INSERT_AUDIT_ENTRY } from './audit-log.sql';

export interface AuditEntryRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  targetId: string | null;
  request: unknown;
}

/** The audit log: written in the audited change's transaction, read newest first. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly db: Database) {}

  async insert(entry: {
    tenantId: string;
    id: string;
    actor: string;
    action: string;
    targetId: string | null;
    requestJson: string;
  }): Promise<void> {
    await this.db.query(INSERT_AUDIT_ENTRY, entry);
  }

  /** Newest first, keyset by id (time-ordered): the entries before `beforeId`, of one action if given. */
  list(query: { tenantId: string; action?: string; beforeId?: string; limit: number }): Promise<AuditEntryRow[]> {
    return this.db.prisma.auditEntry.findMany({
      where: {
        tenantId: query.tenantId,
        ...(query.action === undefined ? {} : { action: query.action }),
        ...(query.beforeId === undefined ? {} : { id: { lt: query.beforeId } }),
      },
      orderBy: { id: 'desc' },
      take: query.limit,
      select: { id: true, at: true, actor: true, action: true, targetId: true, request: true },
    });
  }
}
