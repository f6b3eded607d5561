import { createPublicKey } from 'node:crypto';
import { DomainError } from '@ledger/errors';
import { type ProofKey, proofKeyFrom } from '../domain/signing';

/** The signing key of this deployment, if one is configured (LEDGER_SIGNING_KEY or the embedded data dir). */
export class ProofSigner {
  private readonly proofKey: ProofKey | undefined;

  constructor(signingKey: string | undefined) {
    this.proofKey = signingKey === undefined ? undefined : proofKeyFrom(signingKey);
  }

  key(): ProofKey {
    if (this.proofKey === undefined)
      throw new DomainError(
        'UNAVAILABLE',
        'balance proofs need a signing key: set LEDGER_SIGNING_KEY (an Ed25519 private key, PEM)',
      );
    return this.proofKey;
  }

  /** What GET /v1/proofs/key publishes. */
  publicKey(): { algorithm: 'Ed25519'; keyId: string; publicKey: string; publicKeyPem: string } {
    const key = this.key();
    const pem = createPublicKey({ key: key.publicKeyDer, format: 'der', type: 'spki' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    return {
      algorithm: 'Ed25519',
      keyId: key.keyId.toString('hex'),
      publicKey: key.publicKeyDer.toString('base64'),
      publicKeyPem: pem,
    };
  }
}
