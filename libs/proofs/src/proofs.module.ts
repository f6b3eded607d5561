import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerModule } from '@ledger/ledger';
import { GetInclusionProofUseCase } from './balance-proofs/get-inclusion-proof.use-case';
import { GetProofKeyUseCase } from './balance-proofs/get-proof-key.use-case';
import { IssueBalanceProofUseCase } from './balance-proofs/issue-balance-proof.use-case';
import { JournalSegmentReader } from './balance-proofs/journal-segment';
import { ProofRepository } from './balance-proofs/proof.repository';
import { ProofSigner } from './balance-proofs/proof-signer';

const useCases = [IssueBalanceProofUseCase, GetInclusionProofUseCase, GetProofKeyUseCase];

@Module({})
export class ProofsModule {
  /** `signingKey`: Ed25519 private key (PEM or base64 PKCS#8); without one, issuing a proof answers 503. */
  static forRoot(options: { signingKey: string | undefined }): DynamicModule {
    return {
      module: ProofsModule,
      imports: [LedgerModule],
      providers: [
        { provide: ProofSigner, useValue: new ProofSigner(options.signingKey) },
        ProofRepository,
        JournalSegmentReader,
        ...useCases,
      ],
      exports: useCases,
    };
  }
}
