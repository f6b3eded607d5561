import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// An API key is "ldg_" + base64url(tenant id | key id | 24 random bytes). The ids make the lookup a
// primary-key read; only a SHA-256 of the random part is stored (it has 192 bits of entropy, so a
// slow password hash would add nothing).
const PREFIX = 'ldg_';
const SECRET_BYTES = 24;
const PAYLOAD_BYTES = 16 + 16 + SECRET_BYTES;

export interface IssuedApiKey {
  plaintext: string;
  secretHash: Buffer<ArrayBuffer>;
}

export interface ParsedApiKey {
  tenantId: string;
  keyId: string;
  secret: Buffer;
}

function uuidToBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

function bytesToUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function hashSecret(secret: Buffer): Buffer<ArrayBuffer> {
  return createHash('sha256').update(secret).digest();
}

export function issueApiKey(tenantId: string, keyId: string): IssuedApiKey {
  const secret = randomBytes(SECRET_BYTES);
  const payload = Buffer.concat([uuidToBytes(tenantId), uuidToBytes(keyId), secret]);
  return { plaintext: PREFIX + payload.toString('base64url'), secretHash: hashSecret(secret) };
}

export function parseApiKey(plaintext: string): ParsedApiKey | undefined {
  if (!plaintext.startsWith(PREFIX) || plaintext.length > 100) return undefined;
  const encoded = plaintext.slice(PREFIX.length);
  const payload = Buffer.from(encoded, 'base64url');
  // Node's decoder ignores stray characters and the unused low bits of the last one, so several
  // texts decode to the same key; only the one text that was issued is a key.
  if (payload.length !== PAYLOAD_BYTES || payload.toString('base64url') !== encoded) return undefined;
  return {
    tenantId: bytesToUuid(payload.subarray(0, 16)),
    keyId: bytesToUuid(payload.subarray(16, 32)),
    secret: payload.subarray(32),
  };
}

export function secretMatches(secret: Buffer, storedHash: Buffer): boolean {
  const actual = hashSecret(secret);
  return storedHash.length === actual.length && timingSafeEqual(actual, storedHash);
}
