import { sql } from '@ledger/db';

/**
 * The request is stored as the canonical JSON text the interceptor already made (and measured), cast
 * once by PostgreSQL; through Prisma Client the body would be serialised a second time.
 */
export const INSERT_AUDIT_ENTRY = sql<{
  tenantId: string;
  id: string;
  actor: string;
  action: string;
  targetId: string | null;
  requestJson: string;
}>(`
INSERT INTO audit_log (tenant_id, id, actor, action, target_id, request)
VALUES (:tenantId, :id, :actor, :action, :targetId, :requestJson::jsonb)`);
