import { describe, expect, it } from 'vitest';
import { assertAllowedTarget, isForbiddenAddress, parseWebhookUrl } from './webhook-target';

describe('webhook targets', () => {
  it('forbids loopback, private, link-local, CGNAT and IPv4-mapped forms of them', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('accepts only http(s) URLs without credentials or fragments', () => {
    expect(parseWebhookUrl('https://hooks.example.com/ledger?x=1').hostname).toBe('hooks.example.com');
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'https://user:pw@example.com/',
      'https://example.com/#x',
      'not a url',
    ]) {
      expect(() => parseWebhookUrl(url), url).toThrow(/url:/);
    }
  });

  it('refuses URLs that resolve to loopback, in every spelling, unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
    ]) {
      await expect(assertAllowedTarget(parseWebhookUrl(url), false), url).rejects.toThrow(
        /loopback, private or reserved/,
      );
    }
    await expect(assertAllowedTarget(parseWebhookUrl('http://127.0.0.1:8080/'), true)).resolves.toBeUndefined();
  });
});
