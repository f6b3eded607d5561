import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import type { BalanceProofDocument } from '../domain/proof-document';
import { JournalSegmentReader } from './journal-segment';
import { ProofRepository } from './proof.repository';

/**
 * A stored balance proof (default: the tenant's latest), never a new one. With `since` (an earlier
 * proof's id) it also carries the journal links from that proof's heads to this one's.
 */
@Injectable()
export class GetBalanceProofUseCase {
  constructor(
    private readonly proofs: ProofRepository,
    private readonly segments: JournalSegmentReader,
  ) {}

  async execute(command: { tenantId: string; proofId?: string; since?: string }): Promise<BalanceProofDocument> {
    const proof = await this.stored(command.tenantId, command.proofId);
    if (command.since === undefined) return proof;
    const previous = await this.stored(command.tenantId, command.since);
    const heads = proof.journal.stripes.map((head) => ({
      stripe: head.stripe,
      seq: BigInt(head.seq),
      hash: Buffer.from(head.hash, 'hex'),
    }));
    return { ...proof, consistency: await this.segments.read(command.tenantId, previous, heads) };
  }

  private async stored(tenantId: string, id: string | undefined): Promise<BalanceProofDocument> {
    const proof = await this.proofs.find(tenantId, id);
    if (proof !== undefined) return proof;
    throw new DomainError(
      'PROOF_NOT_FOUND',
      id === undefined
        ? 'no balance proof has been issued yet: POST /v1/proofs/balances issues one'
        : `balance proof ${id} not found`,
      id === undefined ? {} : { proofId: id },
    );
  }
}
