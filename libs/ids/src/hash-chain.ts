import { hash } from 'node:crypto';

/**
 * One link of a hash chain: hash(n) = SHA-256(hash(n-1) || encoding(n)). The journal writes its chains
 * with it and the offline proof verifier re-hashes them with it, so both use this one definition.
 */
export function chainHash(previousHash: Buffer, encoding: Buffer): Buffer {
  // One-shot over one buffer: cheaper than a Hash object per link.
  return hash('sha256', Buffer.concat([previousHash, encoding]), 'buffer');
}
