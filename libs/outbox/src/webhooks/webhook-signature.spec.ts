import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './webhook-signature';

const body = '{"id":"e1","type":"transaction.posted"}';
const now = 1_800_000_000;

describe('webhook signatures', () => {
  it('verifies with the secret that signed, within the tolerance', () => {
    const header = signatureHeader(body, ['whsec_new'], now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, body, 'whsec_new', now + 299)).toBe(true);
  });

  it('refuses another secret, another body, an old or future timestamp, and garbage', () => {
    const header = signatureHeader(body, ['whsec_new'], now);
    expect(verifySignature(header, body, 'whsec_other', now)).toBe(false);
    expect(verifySignature(header, `${body} `, 'whsec_new', now)).toBe(false);
    expect(verifySignature(header, body, 'whsec_new', now + 301)).toBe(false);
    expect(verifySignature(header, body, 'whsec_new', now - 301)).toBe(false);
    expect(verifySignature('t=abc,v1=00', body, 'whsec_new', now)).toBe(false);
    expect(verifySignature(`t=${now},t=${now},v1=00`, body, 'whsec_new', now)).toBe(false);
  });

  it('during a rotation signs with both secrets, so either verifies', () => {
    const header = signatureHeader(body, ['whsec_new', 'whsec_old'], now);
    expect(header.split(',v1=')).toHaveLength(3);
    expect(verifySignature(header, body, 'whsec_new', now)).toBe(true);
    expect(verifySignature(header, body, 'whsec_old', now)).toBe(true);
  });
});
