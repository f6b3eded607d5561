import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { ReadBooksUseCase } from '@ledger/ledger';
import { buildBalanceProof } from '../domain/build-proof';
import { ACCOUNTS_PER_PROOF_MAX } from '../domain/limits';
import type { BalanceProofDocument } from '../domain/proof-document';
import { JournalSegmentReader } from './journal-segment';
import { ProofRepository } from './proof.repository';
import { ProofSigner } from './proof-signer';

/**
 * Signs the tenant's books at the current journal position: balances of the posted entries effective
 * at or before `asOf` (default now), read in one snapshot with the stripe heads. With `since` (an
 * earlier proof's id) the answer also carries the journal links from that proof's heads to these.
 */
@Injectable()
export class IssueBalanceProofUseCase {
  constructor(
    private readonly books: ReadBooksUseCase,
    private readonly signer: ProofSigner,
    private readonly proofs: ProofRepository,
    private readonly segments: JournalSegmentReader,
  ) {}

  async execute(command: { tenantId: string; asOf?: Date; since?: string }): Promise<BalanceProofDocument> {
    const key = this.signer.key();
    const previous = command.since === undefined ? undefined : await this.proofs.find(command.tenantId, command.since);
    if (command.since !== undefined && previous === undefined)
      throw new DomainError('NOT_FOUND', `balance proof ${command.since} not found`);
    const issuedAt = new Date();
    const books = await this.books.execute({
      tenantId: command.tenantId,
      asOf: command.asOf ?? issuedAt,
      accountsMax: ACCOUNTS_PER_PROOF_MAX,
    });
    const proof = buildBalanceProof({ ...books, issuedAt }, key);
    await this.proofs.insert(proof);
    if (previous === undefined) return proof;
    return { ...proof, consistency: await this.segments.read(command.tenantId, previous, books.stripes) };
  }
}
