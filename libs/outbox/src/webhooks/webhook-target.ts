import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '@ledger/errors';

// Addresses a webhook must not reach unless the operator allows it: loopback, private, carrier-grade
// NAT, link-local (cloud metadata at 169.254.169.254), unspecified, multicast, reserved, and their
// IPv6 counterparts. This is what keeps a tenant from making the server call into its own network.
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function invalidUrl(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `url: ${message}`, { fields: [{ path: 'url', message }] });
}

/** The URL's syntax: http(s), no credentials, no fragment. Where it points is checked on resolution. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl('not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidUrl('must be http or https');
  if (url.username || url.password) throw invalidUrl('must not carry credentials');
  if (url.hash) throw invalidUrl('must not have a fragment');
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses forbidden addresses. Checking the very address the
 * connection uses (not a resolution made earlier) leaves no window for DNS rebinding.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isForbiddenAddress(entry.address));
      if (refused)
        return callback(
          Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private or reserved address`), {
            code: 'EFORBIDDENTARGET',
          }),
          [],
        );
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Refuses, when the subscription is made, a URL that resolves to a forbidden address. */
export async function assertAllowedTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, found) =>
      error ? reject(invalidUrl(`${hostname} does not resolve`)) : resolve(found),
    ),
  );
  const refused = addresses.find((entry) => isForbiddenAddress(entry.address));
  if (refused) throw invalidUrl(`${hostname} resolves to ${refused.address}, a loopback, private or reserved address`);
}
