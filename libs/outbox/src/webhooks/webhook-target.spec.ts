import { describe, expect, it } from 'vitest';
import { postWebhook } from './webhook-http';
import {
  FORBIDDEN_TARGET_MESSAGE,
  assertAllowedTarget,
  guardedLookup,
  isForbiddenAddress,
  parseWebhookUrl,
} from './webhook-target';

const ADDRESS = /\d+\.\d+\.\d+\.\d+|::|[0-9a-f]{1,4}:[0-9a-f]{1,4}/i;

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
      'fe80::1%eth0',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '224.0.0.1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it('forbids site-local fec0::/10', () => {
    for (const address of ['fec0::1', 'feff:ffff::1', 'FEC0:0:0:0:0:0:0:1'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('forbids 6to4 2002::/16 whatever IPv4 address it embeds, public included', () => {
    for (const address of ['2002:7f00:1::1', '2002:a00:1::', '2002:808:808::1'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('forbids IPv4-compatible ::a.b.c.d (::/96), in both spellings and for public IPv4 too', () => {
    for (const address of ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::8.8.8.8', '::808:808'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('judges IPv4-mapped, IPv4-translated and NAT64 addresses by the IPv4 address they carry', () => {
    for (const address of [
      '::ffff:192.168.0.1',
      '::ffff:0:127.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::8.8.8.8',
    ])
      expect(isForbiddenAddress(address), address).toBe(true);
    for (const address of ['::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b::808:808'])
      expect(isForbiddenAddress(address), address).toBe(false);
  });

  it('forbids Teredo, documentation, discard and multicast IPv6 ranges, and what is not an address', () => {
    for (const address of ['2001::1', '2001:db8::1', '100::1', 'ff02::1', 'not-an-ip', '1::2::3'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450::1'])
      expect(isForbiddenAddress(address), address).toBe(false);
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

  it('refuses URLs that resolve to a forbidden address, in every spelling, unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[fec0::1]/',
      'http://[2002:7f00:1::1]/',
      'http://[64:ff9b::7f00:1]/',
    ]) {
      await expect(assertAllowedTarget(parseWebhookUrl(url), false), url).rejects.toThrow(FORBIDDEN_TARGET_MESSAGE);
    }
    await expect(assertAllowedTarget(parseWebhookUrl('http://127.0.0.1:8080/'), true)).resolves.toBeUndefined();
  });

  it('names the rule, never the address, when refusing at creation', async () => {
    const refusal = await assertAllowedTarget(parseWebhookUrl('http://localhost:8080/'), false).catch((e) => e);
    expect(refusal.message).toBe(`url: ${FORBIDDEN_TARGET_MESSAGE}`);
    expect(JSON.stringify(refusal.details)).not.toMatch(ADDRESS);
    expect(FORBIDDEN_TARGET_MESSAGE).not.toMatch(ADDRESS);
  });

  it('names the rule, never the address, when refusing at connect time', async () => {
    const lookupError = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (error) => resolve(error)),
    );
    expect(lookupError?.message).toBe(FORBIDDEN_TARGET_MESSAGE);
    const sent = postWebhook(
      new URL('http://localhost:9/hooks'),
      '{}',
      {},
      {
        connectTimeoutMs: 1000,
        responseTimeoutMs: 2000,
        allowPrivate: false,
      },
    );
    await expect(sent).rejects.toThrow(FORBIDDEN_TARGET_MESSAGE);
    expect(String(await sent.catch((e) => e.message))).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
