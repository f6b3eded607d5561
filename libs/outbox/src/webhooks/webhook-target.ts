import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '@ledger/errors';

// Addresses a webhook must not reach unless the operator allows it: loopback, private, carrier-grade
// NAT, link-local (cloud metadata at 169.254.169.254), unspecified, multicast, reserved, and their
// IPv6 counterparts. This is what keeps a tenant from making the server call into its own network.
const FORBIDDEN_IPV4 = new BlockList();
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
  FORBIDDEN_IPV4.addSubnet(network, prefix, 'ipv4');
}

// Whole IPv6 ranges refused whatever they carry. ::/96 holds the unspecified address, loopback and the
// deprecated IPv4-compatible form (::a.b.c.d). 6to4 (2002::/16) and Teredo (2001::/32) tunnel to an IPv4
// host through a relay: refused outright, as no receiver needs them and a relay may sit inside a network.
const FORBIDDEN_IPV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN_IPV6.addSubnet(network, prefix, 'ipv6');
}

// IPv6 forms that reach an IPv4 host: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d)
// and NAT64's well-known prefix (64:ff9b::a.b.c.d). Each is judged by the IPv4 address it carries.
const IPV4_CARRYING_PREFIXES: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0xffff, 0],
  [0x64, 0xff9b, 0, 0, 0, 0],
];

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and a zone allowed). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, ...rest] = text.split('::');
  if (rest.length > 0) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  const groups = tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : undefined;
}

function embeddedIpv4(groups: readonly number[]): string | undefined {
  const carried = IPV4_CARRYING_PREFIXES.some((prefix) => prefix.every((group, index) => groups[index] === group));
  if (!carried) return undefined;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return FORBIDDEN_IPV4.check(address, 'ipv4');
  const groups = family === 6 ? ipv6Groups(address) : undefined;
  if (!groups) return true;
  const canonical = groups.map((group) => group.toString(16)).join(':');
  if (FORBIDDEN_IPV6.check(canonical, 'ipv6')) return true;
  const ipv4 = embeddedIpv4(groups);
  return ipv4 !== undefined && FORBIDDEN_IPV4.check(ipv4, 'ipv4');
}

function invalidUrl(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `url: ${message}`, { fields: [{ path: 'url', message }] });
}

/**
 * The one refusal, at creation and at connect time alike. It names the rule, never the address: saying
 * what a name resolves to would let a tenant map the server's internal DNS one webhook at a time.
 */
export const FORBIDDEN_TARGET_MESSAGE = "the URL's host resolves to a private or reserved address";

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
      if (!allowPrivate && addresses.some((entry) => isForbiddenAddress(entry.address)))
        return callback(Object.assign(new Error(FORBIDDEN_TARGET_MESSAGE), { code: 'EFORBIDDENTARGET' }), []);
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
  if (addresses.some((entry) => isForbiddenAddress(entry.address))) throw invalidUrl(FORBIDDEN_TARGET_MESSAGE);
}
