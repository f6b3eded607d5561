import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { JournalRepository, ReadBooksUseCase } from '@ledger/ledger';
import { buildBalanceProof } from '../domain/build-proof';
import { journalHeadDigest } from '../domain/checkpoint';
import { ACCOUNTS_PER_PROOF_MAX } from '../domain/limits';
import { type CheckpointHeaderDocument, headerOf } from '../domain/proof-document';
import { ProofRepository } from './proof.repository';
import { ProofSigner } from './proof-signer';

export const PROOF_ISSUING_SETTINGS = Symbol('PROOF_ISSUING_SETTINGS');

export interface ProofIssuingSettings {
  /** New proofs a tenant may have issued in any minute; a reused proof does not count. */
  issuedPerMinuteMax: number;
}

const WINDOW_MS = 60_000;

/**
 * Signs the tenant's books at the current journal position: balances of the posted entries effective
 * at or before `asOf` (default now), read in one snapshot with the stripe heads. While the heads are
 * those of the latest proof for the same `asOf` (or, without one, of the latest proof issued without
 * one), that proof is the answer and nothing is stored: a proof commits to the heads, and the same
 * heads hold the same transactions. Issuing is serialised per tenant and limited per minute, as a
 * new proof reads, signs and keeps every account (up to 200,000).
 */
@Injectable()
export class IssueBalanceProofUseCase {
  constructor(
    private readonly db: Database,
    private readonly books: ReadBooksUseCase,
    private readonly journal: JournalRepository,
    private readonly signer: ProofSigner,
    private readonly proofs: ProofRepository,
    @Inject(PROOF_ISSUING_SETTINGS) private readonly settings: ProofIssuingSettings,
  ) {}

  async execute(command: {
    tenantId: string;
    asOf?: Date;
  }): Promise<{ checkpoint: CheckpointHeaderDocument; reused: boolean }> {
    const { tenantId } = command;
    const key = this.signer.key();
    return this.db.transaction('read committed', async () => {
      await this.proofs.lockIssuing(tenantId);
      const latest = await this.proofs.latestCheckpoint(tenantId, command.asOf);
      const head = journalHeadDigest(await this.journal.heads(tenantId)).toString('hex');
      if (latest !== undefined && latest.journal.head === head) return { checkpoint: latest, reused: true };
      await this.withinRate(tenantId);
      const issuedAt = new Date();
      const books = await this.books.execute({
        tenantId,
        asOf: command.asOf ?? issuedAt,
        accountsMax: ACCOUNTS_PER_PROOF_MAX,
      });
      const proof = buildBalanceProof({ ...books, issuedAt }, key);
      await this.proofs.insert(proof);
      return { checkpoint: headerOf(proof), reused: false };
    });
  }

  private async withinRate(tenantId: string): Promise<void> {
    const now = Date.now();
    const recent = await this.proofs.issuedSince(tenantId, new Date(now - WINDOW_MS));
    if (recent.issued < this.settings.issuedPerMinuteMax || recent.first === null) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((recent.first.getTime() + WINDOW_MS - now) / 1000));
    throw new DomainError(
      'RATE_LIMITED',
      `${recent.issued} balance proofs issued in the last minute, the most a tenant may have ` +
        `(${this.settings.issuedPerMinuteMax}); retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }
}
