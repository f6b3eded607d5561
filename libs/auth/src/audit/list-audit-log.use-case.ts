import { Injectable } from '@nestjs/common';
import { decodeIdCursor, pageOf } from '@ledger/db';
import { AuditLogRepository } from './audit-log.repository';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: string;
  action: string;
  targetId: string | null;
  request: unknown;
}

/** The tenant's audit log, newest first. */
@Injectable()
export class ListAuditLogUseCase {
  constructor(private readonly auditLog: AuditLogRepository) {}

  async execute(query: {
    tenantId: string;
    action?: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: AuditEntryView[]; nextCursor: string | null }> {
    const rows = await this.auditLog.list({
      tenantId: query.tenantId,
      action: query.action,
      beforeId: query.cursor === undefined ? undefined : decodeIdCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = pageOf(rows, query.limit, (last) => [last.id]);
    return { data: page.data.map((row) => ({ ...row, at: row.at.toISOString() })), nextCursor: page.nextCursor };
  }
}
