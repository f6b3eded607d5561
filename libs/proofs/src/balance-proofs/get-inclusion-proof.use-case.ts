import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { inclusionProofOf } from '../domain/build-proof';
import type { InclusionProofDocument } from '../domain/proof-document';
import { ProofRepository } from './proof.repository';

/** The path showing one account (id or code) is counted in an issued proof (default: the latest). */
@Injectable()
export class GetInclusionProofUseCase {
  constructor(private readonly proofs: ProofRepository) {}

  async execute(command: { tenantId: string; account: string; proofId?: string }): Promise<InclusionProofDocument> {
    const proof = await this.proofs.find(command.tenantId, command.proofId);
    if (proof === undefined)
      throw new DomainError(
        'PROOF_NOT_FOUND',
        command.proofId === undefined
          ? 'no balance proof has been issued yet: POST /v1/proofs/balances issues one'
          : `balance proof ${command.proofId} not found`,
      );
    const inclusion = inclusionProofOf(proof, command.account);
    if (inclusion === undefined)
      throw new DomainError('NOT_FOUND', `account ${command.account} is not in balance proof ${proof.id}`);
    return inclusion;
  }
}
