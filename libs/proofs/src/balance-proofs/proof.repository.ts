import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { BalanceProofDocument } from '../domain/proof-document';

const INSERT_PROOF = `
INSERT INTO balance_proofs (tenant_id, id, as_of, issued_at, document)
VALUES ($1, $2, $3, $4, $5::text::jsonb)`;

const FIND_PROOF = `
SELECT document FROM balance_proofs
 WHERE tenant_id = $1 AND ($2::bytea IS NULL OR id = $2)
 ORDER BY issued_at DESC, id
 LIMIT 1`;

/** Issued balance proofs, kept whole (accounts included) so later requests can refer to them. */
@Injectable()
export class ProofRepository {
  constructor(private readonly db: Database) {}

  async insert(proof: BalanceProofDocument): Promise<void> {
    const { consistency: _segment, ...stored } = proof;
    await this.db.executor.query(INSERT_PROOF, [
      proof.tenantId,
      Buffer.from(proof.id, 'hex'),
      new Date(proof.asOf),
      new Date(proof.issuedAt),
      JSON.stringify(stored),
    ]);
  }

  /** One proof by id, or the tenant's latest when `id` is undefined. */
  async find(tenantId: string, id: string | undefined): Promise<BalanceProofDocument | undefined> {
    const rows = await this.db.executor.query<{ document: BalanceProofDocument }>(FIND_PROOF, [
      tenantId,
      id === undefined ? null : Buffer.from(id, 'hex'),
    ]);
    return rows[0]?.document;
  }
}
