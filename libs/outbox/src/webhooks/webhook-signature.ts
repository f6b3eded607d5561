import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Ledger-Signature';
export const EVENT_ID_HEADER = 'Ledger-Event-Id';
/** A signature older (or newer) than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, one `v1` per secret: during a secret rotation
 * both the new and the previous secret sign, so a receiver holding either one accepts the request.
 */
export function signatureHeader(body: string, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, body)}`)].join(',');
}

/** True when one `v1` of the header is the HMAC of this body under `secret`, within the tolerance. */
export function verifySignature(
  header: string,
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]);
  const timestamps = parts.filter(([key]) => key === 't').map(([, value]) => Number(value));
  if (
    timestamps.length !== 1 ||
    !Number.isSafeInteger(timestamps[0]) ||
    Math.abs(nowSeconds - timestamps[0]!) > toleranceSeconds
  )
    return false;
  const expected = Buffer.from(hmacHex(secret, timestamps[0]!, body), 'hex');
  return parts
    .filter(([key, value]) => key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .some(([, value]) => timingSafeEqual(Buffer.from(value!, 'hex'), expected));
}

/** A new HMAC secret (webhook subscriptions, inbound sources). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
