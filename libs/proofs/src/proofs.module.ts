import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { GetInclusionProofUseCase } from './balance-proofs/get-inclusion-proof.use-case';
import { GetProofKeyUseCase } from './balance-proofs/get-proof-key.use-case';
import { GetBalanceProofUseCase } from './balance-proofs/get-balance-proof.use-case';
import { IssueBalanceProofUseCase, PROOF_ISSUING_SETTINGS } from './balance-proofs/issue-balance-proof.use-case';
import { JournalSegmentReader } from './balance-proofs/journal-segment';
import { ProofRepository } from './balance-proofs/proof.repository';
import { ProofSigner } from './balance-proofs/proof-signer';

const useCases = [IssueBalanceProofUseCase, GetBalanceProofUseCase, GetInclusionProofUseCase, GetProofKeyUseCase];

/** New proofs a tenant may have issued per minute unless configured (`LEDGER_PROOFS_PER_MINUTE_MAX`). */
export const PROOFS_PER_MINUTE_MAX_DEFAULT = 6;

@Module({})
export class ProofsModule {
  /**
   * `signingKey`: Ed25519 private key (PEM or base64 PKCS#8); without one, issuing a proof answers 503.
   * `issuedPerMinuteMax`: new proofs per tenant per minute.
   */
  static forRoot(options: { signingKey: string | undefined; issuedPerMinuteMax?: number }): DynamicModule {
    return {
      module: ProofsModule,
      imports: [LedgerModule],
      providers: [
        { provide: ProofSigner, useValue: new ProofSigner(options.signingKey) },
        {
          provide: PROOF_ISSUING_SETTINGS,
          useValue: { issuedPerMinuteMax: options.issuedPerMinuteMax ?? PROOFS_PER_MINUTE_MAX_DEFAULT },
        },
        ProofRepository,
        JournalSegmentReader,
        ...useCases,
      ],
      exports: useCases,
    };
  }
}
