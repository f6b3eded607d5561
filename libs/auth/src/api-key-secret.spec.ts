import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueApiKey, parseApiKey, secretMatches } from './api-key-secret';

describe('API key secrets', () => {
  it('round-trips tenant and key id, and the secret matches only its own hash', () => {
    const tenantId = randomUUID();
    const keyId = randomUUID();
    const issued = issueApiKey(tenantId, keyId);
    const parsed = parseApiKey(issued.plaintext)!;
    expect(parsed.tenantId).toBe(tenantId);
    expect(parsed.keyId).toBe(keyId);
    expect(secretMatches(parsed.secret, issued.secretHash)).toBe(true);
    expect(secretMatches(parsed.secret, issueApiKey(tenantId, keyId).secretHash)).toBe(false);
  });

  it('refuses text that is not a key', () => {
    const issued = issueApiKey(randomUUID(), randomUUID()).plaintext;
    expect(parseApiKey('')).toBeUndefined();
    expect(parseApiKey('Bearer x')).toBeUndefined();
    expect(parseApiKey(issued.slice(0, -2))).toBeUndefined();
    expect(parseApiKey(`${issued}AAAA`)).toBeUndefined();
    expect(parseApiKey(issued.replace('ldg_', 'xyz_'))).toBeUndefined();
  });

  it('accepts only the text that was issued, not another spelling of the same bytes', () => {
    // 56 bytes take 75 characters whose last one carries 4 bits: its 2 spare bits, a stray
    // character or padding would otherwise make other texts decode to the same key.
    for (let round = 0; round < 50; round += 1) {
      const issued = issueApiKey(randomUUID(), randomUUID()).plaintext;
      const original = parseApiKey(issued)!;
      const sameKey = (text: string) => {
        const parsed = parseApiKey(text);
        return parsed !== undefined && parsed.keyId === original.keyId && parsed.secret.equals(original.secret);
      };
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      for (const last of alphabet) {
        const other = `${issued.slice(0, -1)}${last}`;
        if (other !== issued) expect(sameKey(other)).toBe(false);
      }
      expect(sameKey(`${issued}=`)).toBe(false);
      expect(sameKey(`${issued.slice(0, 10)}.${issued.slice(10)}`)).toBe(false);
      expect(sameKey(issued)).toBe(true);
    }
  });
});
