import { sql } from '@ledger/db';

export interface LockedKeyRow {
  id: string;
  admin: boolean;
  live: boolean;
}

/**
 * The key to revoke and every live admin key of its tenant, locked in id order: two revocations that
 * could together leave the tenant without an admin wait for each other instead of both seeing the other
 * still live (a row revoked meanwhile drops out when the lock is granted, as its WHERE is checked again).
 */
export const LOCK_KEY_AND_LIVE_ADMINS = sql<{ tenantId: string; id: string }, LockedKeyRow>(`
SELECT id::text, 'admin' = ANY (roles) AS admin,
       revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS live
  FROM api_keys
 WHERE tenant_id = :tenantId
   AND (id = :id::uuid OR ('admin' = ANY (roles) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())))
 ORDER BY id
   FOR UPDATE`);

/** Revoked once: a second revocation keeps the first time. */
export const REVOKE_KEY = sql<{ tenantId: string; id: string }>(`
UPDATE api_keys SET revoked_at = now()
 WHERE tenant_id = :tenantId AND id = :id::uuid AND revoked_at IS NULL`);
