import { Injectable } from '@nestjs/common';
import { Database, decodeIdCursor, encodeCursor } from '@ledger/db';
import { LIST_AUDIT_ENTRIES } from './audit-log.sql';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: string;
  action: string;
  targetId: string | null;
  request: unknown;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target_id: string | null;
  request: unknown;
}

/** The tenant's audit log, newest first. */
@Injectable()
export class ListAuditLogUseCase {
  constructor(private readonly db: Database) {}

  async execute(query: {
    tenantId: string;
    action?: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: AuditEntryView[]; nextCursor: string | null }> {
    const after = query.cursor === undefined ? null : decodeIdCursor(query.cursor);
    const rows = await this.db.executor.query<AuditRow>(LIST_AUDIT_ENTRIES, [
      query.tenantId,
      query.action ?? null,
      after,
      query.limit + 1,
    ]);
    const page = rows.slice(0, query.limit);
    return {
      data: page.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        action: row.action,
        targetId: row.target_id,
        request: row.request,
      })),
      nextCursor: rows.length > query.limit ? encodeCursor([page.at(-1)!.id]) : null,
    };
  }
}
