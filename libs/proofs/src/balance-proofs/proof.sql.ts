import { sql } from '@ledger/db';
import type { BalanceProofDocument, CheckpointHeaderDocument } from '../domain/proof-document';

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

/** Serialises the issuing of a tenant's proofs: a second request waits, then finds the first one's proof. */
export const LOCK_PROOF_ISSUING = sql<{ tenantId: string }>(`
SELECT pg_advisory_xact_lock(hashtextextended(:tenantId::text || ':balance-proof', 0))`);

/**
 * The signed part of the tenant's latest proof as of `:asOf`, or of the latest issued without one
 * (its asOf is its issue time) when `:asOf` is null: what a new request may be answered with. The
 * accounts stay in the database.
 */
export const LATEST_CHECKPOINT = sql<
  { tenantId: string; asOf: Date | null },
  { checkpoint: CheckpointHeaderDocument }
>(`
SELECT document - 'accounts' - 'format' AS checkpoint FROM balance_proofs
 WHERE tenant_id = :tenantId
   AND CASE WHEN :asOf::timestamptz IS NULL THEN as_of = issued_at ELSE as_of = :asOf END
 ORDER BY issued_at DESC, id
 LIMIT 1`);

/** How many proofs the tenant has had issued since a time, and when the first of them was. */
export const PROOFS_ISSUED_SINCE = sql<{ tenantId: string; since: Date }, { issued: number; first: Date | null }>(`
SELECT count(*)::int AS issued, min(issued_at) AS first FROM balance_proofs
 WHERE tenant_id = :tenantId AND issued_at > :since`);
