import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { BalanceProofDocument, CheckpointHeaderDocument } from '../domain/proof-document';
import { FIND_PROOF, INSERT_PROOF, LATEST_CHECKPOINT, LOCK_PROOF_ISSUING, PROOFS_ISSUED_SINCE } from './proof.sql';

/** Issued balance proofs, kept whole (accounts included) so later requests can refer to them. */
@Injectable()
export class ProofRepository {
  constructor(private readonly db: Database) {}

  async insert(proof: BalanceProofDocument): Promise<void> {
    const { consistency: _segment, ...stored } = proof;
    await this.db.query(INSERT_PROOF, {
      tenantId: proof.tenantId,
      id: Buffer.from(proof.id, 'hex'),
      asOf: new Date(proof.asOf),
      issuedAt: new Date(proof.issuedAt),
      documentJson: JSON.stringify(stored),
    });
  }

  /** One proof by id, or the tenant's latest when `id` is undefined. */
  async find(tenantId: string, id: string | undefined): Promise<BalanceProofDocument | undefined> {
    const [row] = await this.db.query(FIND_PROOF, {
      tenantId,
      id: id === undefined ? null : Buffer.from(id, 'hex'),
    });
    return row?.document;
  }

  /** Held until the enclosing transaction ends. */
  async lockIssuing(tenantId: string): Promise<void> {
    await this.db.query(LOCK_PROOF_ISSUING, { tenantId });
  }

  /** The signed part of the latest proof as of `asOf` (undefined: of the latest issued without one). */
  async latestCheckpoint(tenantId: string, asOf: Date | undefined): Promise<CheckpointHeaderDocument | undefined> {
    const [row] = await this.db.query(LATEST_CHECKPOINT, { tenantId, asOf: asOf ?? null });
    return row?.checkpoint;
  }

  async issuedSince(tenantId: string, since: Date): Promise<{ issued: number; first: Date | null }> {
    const [row] = await this.db.query(PROOFS_ISSUED_SINCE, { tenantId, since });
    return row!;
  }
}
