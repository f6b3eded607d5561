/** Requests per second and burst per API key; `perSecond: 0` turns limiting off. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export const RATE_LIMIT = Symbol('RATE_LIMIT');

/** Keys tracked at once; the least recently seen are forgotten first (they start again with a full bucket). */
export const RATE_LIMITED_KEYS_MAX = 100_000;

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/**
 * A token bucket per API key, in this process: a key may send `burst` requests at once and
 * `perSecond` on average. With several API processes behind a balancer each applies it on its own.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one request's token: 0 when allowed, else the seconds until a token is there again. */
  take(keyId: string): number {
    if (this.limit.perSecond === 0) return 0;
    const now = this.now();
    const bucket = this.buckets.get(keyId) ?? { tokens: this.limit.burst, refilledAt: now };
    bucket.tokens = Math.min(
      this.limit.burst,
      bucket.tokens + ((now - bucket.refilledAt) / 1000) * this.limit.perSecond,
    );
    bucket.refilledAt = now;
    this.buckets.delete(keyId);
    this.buckets.set(keyId, bucket);
    if (this.buckets.size > RATE_LIMITED_KEYS_MAX) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.limit.perSecond);
  }
}
