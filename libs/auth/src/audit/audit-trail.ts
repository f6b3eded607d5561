import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { canonicalJson, newId } from '@ledger/ids';
import { AuditLogRepository } from './audit-log.repository';

/** Request bodies kept in the audit log up to this size; a larger one is kept as its size only. */
export const AUDITED_BODY_CHARS_MAX = 16_384;

export type AuditAction = `${string}.${string}`;

export interface AuditedChange {
  /** `api-key:<id>`, `operator`, `cli:<os user>`. */
  actor: string;
  action: AuditAction;
  /** The tenant changed; when absent, the tenant the change made (`result.tenant.id`). */
  tenantId?: string;
  /** What the change is about when its result has no id of its own (a route's `:id`). */
  targetId?: string | null;
  /** The request as sent (never a secret: no audited request carries one). */
  request: unknown;
}

type ChangeResult = { id?: unknown; tenant?: { id?: unknown } } | undefined;

/**
 * The one way a privileged change is recorded, over HTTP (the audit interceptor) and from the CLI:
 * the change runs in a database transaction (the caller's, or one of its own) and its entry is
 * written in it, so a change and its record commit together and a refused change leaves none.
 */
@Injectable()
export class AuditTrail {
  constructor(
    private readonly db: Database,
    private readonly auditLog: AuditLogRepository,
  ) {}

  record<T>(change: AuditedChange, work: () => Promise<T>): Promise<T> {
    return this.db.transaction('read committed', async () => {
      const result = await work();
      const made = result as ChangeResult;
      const tenantId = change.tenantId ?? made?.tenant?.id;
      assert.ok(typeof tenantId === 'string', 'an audited change names its tenant');
      const targetId =
        typeof made?.id === 'string'
          ? made.id
          : typeof made?.tenant?.id === 'string'
            ? made.tenant.id
            : (change.targetId ?? null);
      const body = canonicalJson(change.request ?? {});
      const kept =
        body.length <= AUDITED_BODY_CHARS_MAX ? body : JSON.stringify({ truncated: true, chars: body.length });
      await this.auditLog.insert({
        tenantId,
        id: newId(),
        actor: change.actor,
        action: change.action,
        targetId,
        requestJson: kept,
      });
      return result;
    });
  }
}
