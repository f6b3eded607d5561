import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { BalanceProofDocument } from '../domain/proof-document';
import { FIND_PROOF, INSERT_PROOF } from './proof.sql';

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
}
