/** Requests per second and burst per bucket; `perSecond: 0` turns limiting off. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** Buckets tracked at once; the least recently seen are forgotten first (they start again full). */
export const RATE_LIMITED_KEYS_MAX = 100_000;

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/**
 * A token bucket per id (an API key, a tenant, a client address), in this process: an id may spend
 * `burst` tokens at once and `perSecond` on average. With several API processes behind a balancer each
 * applies it on its own.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token: 0 when allowed, else the seconds until a token is there again. */
  take(id: string): number {
    if (this.limit.perSecond === 0) return 0;
    const bucket = this.refilled(id);
    const wait = this.waitFor(bucket);
    if (wait === 0) bucket.tokens -= 1;
    return wait;
  }

  /** The seconds until `id` has a token (0: it has one now), without taking it. */
  retryAfter(id: string): number {
    if (this.limit.perSecond === 0) return 0;
    // An id without a bucket has a full one: looking (the guard does, for every address on every
    // request) makes none, so only the ids that spent tokens are tracked.
    if (this.limit.burst >= 1 && !this.buckets.has(id)) return 0;
    return this.waitFor(this.refilled(id));
  }

  private waitFor(bucket: Bucket): number {
    if (bucket.tokens >= 1) return 0;
    return Math.ceil((1 - bucket.tokens) / this.limit.perSecond);
  }

  private refilled(id: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(id) ?? { tokens: this.limit.burst, refilledAt: now };
    bucket.tokens = Math.min(
      this.limit.burst,
      bucket.tokens + ((now - bucket.refilledAt) / 1000) * this.limit.perSecond,
    );
    bucket.refilledAt = now;
    this.buckets.delete(id);
    this.buckets.set(id, bucket);
    if (this.buckets.size > RATE_LIMITED_KEYS_MAX) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket;
  }
}

export const RATE_LIMIT_OFF: RateLimit = { perSecond: 0, burst: 0 };

/** A verified key is read again after this long, unless configured: the longest a revocation takes elsewhere. */
export const KEY_CACHE_SECONDS_DEFAULT = 10;

/** What the guard limits: requests per key and per tenant, failed authentications per client address. */
export interface AuthLimitSettings {
  perKey?: RateLimit;
  perTenant?: RateLimit;
  failedAuthentications?: { perAddressMax: number; windowSeconds: number };
  /** How long a verified key is trusted before it is read again; 10 s if absent. */
  keyCacheSeconds?: number;
}

/** The guard's three buckets; each is off when not configured. */
export class AuthLimits {
  readonly perKey: RateLimiter;
  readonly perTenant: RateLimiter;
  /** A token per failed authentication; an address without one is refused before any key lookup. */
  readonly failuresPerAddress: RateLimiter;
  readonly keyCacheMs: number;

  constructor(settings: AuthLimitSettings, now?: () => number) {
    this.keyCacheMs = (settings.keyCacheSeconds ?? KEY_CACHE_SECONDS_DEFAULT) * 1000;
    this.perKey = new RateLimiter(settings.perKey ?? RATE_LIMIT_OFF, now);
    this.perTenant = new RateLimiter(settings.perTenant ?? RATE_LIMIT_OFF, now);
    const failures = settings.failedAuthentications;
    this.failuresPerAddress = new RateLimiter(
      failures === undefined || failures.perAddressMax === 0
        ? RATE_LIMIT_OFF
        : { perSecond: failures.perAddressMax / failures.windowSeconds, burst: failures.perAddressMax },
      now,
    );
  }
}
