import { Injectable } from '@nestjs/common';
import { sha256 } from '@ledger/ids';
import { ApiKeyRepository } from './api-key.repository';
import { parseApiKey, secretMatches } from './api-key-secret';
import { AuthLimits } from './rate-limiter';
import { type Principal, apiKeyActor } from './roles';

/**
 * Verified keys are remembered briefly (`AuthLimits.keyCacheMs`, LEDGER_KEY_CACHE_SECONDS) so that a busy
 * client costs no key lookup per request; that time is also the longest a key revoked through another
 * process keeps working in this one.
 */
export const VERIFIED_KEY_CACHE_SIZE_MAX = 10_000;

interface CachedPrincipal {
  principal: Principal;
  expiresAt: number;
}

@Injectable()
export class AuthenticateUseCase {
  private readonly verified = new Map<string, CachedPrincipal>();
  /** Lookups in flight, by the same key as `verified`; one per key presented, so bounded by the requests. */
  private readonly lookups = new Map<string, Promise<Principal | undefined>>();
  /** Counts `forget` calls: a lookup that began before one does not remember what it read. */
  private forgotten = 0;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly limits: AuthLimits,
  ) {}

  /** The principal of a presented API key, or undefined for any key that is not valid now. */
  async execute(plaintext: string, now = Date.now()): Promise<Principal | undefined> {
    const cacheKey = sha256(plaintext).toString('base64');
    const cached = this.verified.get(cacheKey);
    if (cached !== undefined && cached.expiresAt > now) return cached.principal;
    this.verified.delete(cacheKey);
    // Requests that present a key not remembered (yet, or any more) at the same time share one lookup:
    // a client's burst after a pause would otherwise read the key once per request, each on a connection.
    let lookup = this.lookups.get(cacheKey);
    if (lookup === undefined) {
      lookup = this.lookUp(plaintext, cacheKey, now).finally(() => {
        if (this.lookups.get(cacheKey) === lookup) this.lookups.delete(cacheKey);
      });
      this.lookups.set(cacheKey, lookup);
    }
    return lookup;
  }

  private async lookUp(plaintext: string, cacheKey: string, now: number): Promise<Principal | undefined> {
    const parsed = parseApiKey(plaintext);
    if (parsed === undefined) return undefined;
    const forgottenBefore = this.forgotten;
    const stored = await this.keys.find(parsed.tenantId, parsed.keyId);
    if (
      stored === undefined ||
      stored.revokedAt !== null ||
      (stored.expiresAt !== null && stored.expiresAt.getTime() <= now) ||
      !secretMatches(parsed.secret, stored.secretHash)
    ) {
      return undefined;
    }
    const principal: Principal = {
      tenantId: stored.tenantId,
      keyId: stored.id,
      roles: stored.roles,
      actor: apiKeyActor(stored.id),
      expiresAt: stored.expiresAt,
    };
    // A key revoked while it was read is answered to the requests that were waiting, not remembered.
    if (this.limits.keyCacheMs === 0 || this.forgotten !== forgottenBefore) return principal;
    if (this.verified.size >= VERIFIED_KEY_CACHE_SIZE_MAX) this.verified.clear();
    // Remembered no longer than the key itself lives: an expired key is refused at once, cache or not.
    const keyEndsAt = stored.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
    this.verified.set(cacheKey, { principal, expiresAt: Math.min(now + this.limits.keyCacheMs, keyEndsAt) });
    return principal;
  }

  /** A revoked key is refused from its next request on in this process (the cache holds at most SIZE_MAX). */
  forget(tenantId: string, keyId: string): void {
    this.forgotten++;
    this.lookups.clear();
    for (const [cacheKey, cached] of this.verified) {
      if (cached.principal.tenantId === tenantId && cached.principal.keyId === keyId) this.verified.delete(cacheKey);
    }
  }
}
