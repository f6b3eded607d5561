import { tmpdir } from 'node:os';
import { z } from 'zod';

/** The settings of what the API does before a request reaches a use case: limits per tenant, address, upload. */
export const EDGE_SETTINGS = {
  RATE_LIMIT_TENANT_PER_SECOND: z.coerce.number().int().min(0).max(10_000_000).optional(),
  RATE_LIMIT_TENANT_BURST: z.coerce.number().int().min(1).max(10_000_000).optional(),
  AUTH_FAILURES_PER_ADDRESS_MAX: z.coerce.number().int().min(0).max(1_000_000).default(30),
  AUTH_FAILURES_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  LEDGER_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  LEDGER_UPLOAD_DIR: z.string().min(1).optional(),
  LEDGER_UPLOADS_PER_KEY_MAX: z.coerce.number().int().min(1).max(1000).default(2),
  LEDGER_UPLOADS_PER_ADDRESS_MAX: z.coerce.number().int().min(1).max(1000).default(4),
  LEDGER_INBOUND_BODY_BYTES_MAX: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 * 1024 * 1024)
    .default(64 * 1024),
  LEDGER_TRUST_PROXY: z.string().min(1).optional(),
  HTTP_KEEP_ALIVE_SECONDS: z.coerce.number().int().min(1).max(3600).default(75),
};

type EdgeValues = z.output<z.ZodObject<typeof EDGE_SETTINGS>>;

/** A token bucket: `burst` at once, `perSecond` on average; `perSecond: 0` turns it off. */
export interface RateLimitConfig {
  perSecond: number;
  burst: number;
}

export interface EdgeConfig {
  /** Requests per second and burst per tenant, all its keys together, in each API process; 0 turns it off. */
  tenantRateLimit: RateLimitConfig;
  /** Failed authentications one client address may make per window before it is refused without a lookup. */
  authFailureLimit: { perAddressMax: number; windowSeconds: number };
  /**
   * How long a process trusts a key it verified before it reads the key again: the longest a key revoked
   * through another process still works here (the revoking process forgets it at once); 0: every request.
   */
  keyCacheSeconds: number;
  /** Where statement uploads are written while they are imported, and how many may run at once. */
  uploads: { directory: string; perKeyMax: number; perAddressMax: number };
  /** Largest signed inbound message body (read raw, verified, and only then parsed). */
  inboundBodyBytesMax: number;
  /**
   * Express's `trust proxy` setting (`loopback`, a CIDR list or a hop count): the client address is then
   * read from X-Forwarded-For. Unset: the address is the connection's peer.
   */
  trustProxy: string | undefined;
  /**
   * How long an idle kept-alive connection stays open. Longer than the idle timeout of common clients and
   * proxies (Node's fetch 4 s, load balancers 60 s), so the client always closes first and never sends a
   * request on a connection the server is closing.
   */
  keepAliveSeconds: number;
}

export function edgeConfigOf(values: EdgeValues, keyRatePerSecond: number): EdgeConfig {
  // The tenant's default is four keys' worth, and off when the per-key limit is.
  const tenantPerSecond = values.RATE_LIMIT_TENANT_PER_SECOND ?? 4 * keyRatePerSecond;
  return {
    tenantRateLimit: { perSecond: tenantPerSecond, burst: values.RATE_LIMIT_TENANT_BURST ?? 2 * tenantPerSecond },
    authFailureLimit: {
      perAddressMax: values.AUTH_FAILURES_PER_ADDRESS_MAX,
      windowSeconds: values.AUTH_FAILURES_WINDOW_SECONDS,
    },
    keyCacheSeconds: values.LEDGER_KEY_CACHE_SECONDS,
    uploads: {
      directory: values.LEDGER_UPLOAD_DIR ?? tmpdir(),
      perKeyMax: values.LEDGER_UPLOADS_PER_KEY_MAX,
      perAddressMax: values.LEDGER_UPLOADS_PER_ADDRESS_MAX,
    },
    inboundBodyBytesMax: values.LEDGER_INBOUND_BODY_BYTES_MAX,
    trustProxy: values.LEDGER_TRUST_PROXY,
    keepAliveSeconds: values.HTTP_KEEP_ALIVE_SECONDS,
  };
}
