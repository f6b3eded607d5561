import { sql } from '@ledger/db';
import type { BalanceProofDocument } from '../domain/proof-document';

// Hand-written: a proof's document holds every account (up to ACCOUNTS_PER_PROOF_MAX, tens of megabytes
// of JSON); it is sent as the text already made and cast once by PostgreSQL.

export const INSERT_PROOF = sql<{
  tenantId: string;
  id: Buffer;
  asOf: Date;
  issuedAt: Date;
  documentJson: string;
}>(`
INSERT INTO balance_proofs (tenant_id, id, as_of, issued_at, document)
VALUES (:tenantId, :id, :asOf, :issuedAt, :documentJson::text::jsonb)`);

/** One proof by id, or the tenant's latest when `:id` is null. */
export const FIND_PROOF = sql<{ tenantId: string; id: Buffer | null }, { document: BalanceProofDocument }>(`
SELECT document FROM balance_proofs
 WHERE tenant_id = :tenantId AND (:id::bytea IS NULL OR id = :id)
 ORDER BY issued_at DESC, id
 LIMIT 1`);
