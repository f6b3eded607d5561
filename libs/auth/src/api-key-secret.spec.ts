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
});
