import { type KeyObject, createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/** The key that signs proofs; its id is the SHA-256 of the public key (SPKI DER). */
export interface ProofKey {
  privateKey: KeyObject;
  publicKeyDer: Buffer;
  keyId: Buffer;
}

export function keyIdOf(publicKeyDer: Buffer): Buffer {
  return createHash('sha256').update(publicKeyDer).digest();
}

/** An Ed25519 private key as PEM (PKCS#8), or as base64 of the PKCS#8 DER. */
export function proofKeyFrom(text: string): ProofKey {
  const trimmed = text.trim();
  const privateKey = trimmed.includes('-----BEGIN')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`the proof signing key must be Ed25519, not ${privateKey.asymmetricKeyType}`);
  const publicKeyDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { privateKey, publicKeyDer, keyId: keyIdOf(publicKeyDer) };
}

export function signEncoding(key: ProofKey, encoding: Buffer): Buffer {
  return sign(null, encoding, key.privateKey);
}

/** False for a bad signature and for a public key that is not a valid Ed25519 key. */
export function signatureValid(publicKeyDer: Buffer, encoding: Buffer, signature: Buffer): boolean {
  try {
    const publicKey = createPublicKey({ key: publicKeyDer, format: 'der', type: 'spki' });
    return publicKey.asymmetricKeyType === 'ed25519' && verify(null, encoding, publicKey, signature);
  } catch {
    return false;
  }
}
