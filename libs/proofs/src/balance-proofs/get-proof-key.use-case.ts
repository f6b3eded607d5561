import { Injectable } from '@nestjs/common';
import { ProofSigner } from './proof-signer';

/** The public half of the signing key, for verifiers to pin. */
@Injectable()
export class GetProofKeyUseCase {
  constructor(private readonly signer: ProofSigner) {}

  execute() {
    return this.signer.publicKey();
  }
}
