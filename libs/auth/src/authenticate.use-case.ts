import { Injectable } from '@nestjs/common';
import { sha256 } from '@ledger/ids';
import { ApiKeyRepository } from './api-key.repository';
import { parseApiKey, secretMatches } from './api-key-secret';
import { type Principal, apiKeyActor } from './roles';

/** Verified keys are remembered briefly so that a busy client costs no key lookup per request. */
export const VERIFIED_KEY_CACHE_TTL_MS = 10_000;
export const VERIFIED_KEY_CACHE_SIZE_MAX = 10_000;

interface CachedPrincipal {
  principal: Principal;
  expiresAt: number;
}

@Injectable()
export class AuthenticateUseCase {
  private readonly verified = new Map<string, CachedPrincipal>();

  constructor(private readonly keys: ApiKeyRepository) {}

  /** The principal of a presented API key, or undefined for any key that is not valid now. */
  async execute(plaintext: string, now = Date.now()): Promise<Principal | undefined> {
    const cacheKey = sha256(plaintext).toString('base64');
    const cached = this.verified.get(cacheKey);
    if (cached !== undefined && cached.expiresAt > now) return cached.principal;
    this.verified.delete(cacheKey);
    const parsed = parseApiKey(plaintext);
    if (parsed === undefined) return undefined;
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
    if (this.verified.size >= VERIFIED_KEY_CACHE_SIZE_MAX) this.verified.clear();
    // Remembered no longer than the key itself lives: an expired key is refused at once, cache or not.
    const keyEndsAt = stored.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
    this.verified.set(cacheKey, { principal, expiresAt: Math.min(now + VERIFIED_KEY_CACHE_TTL_MS, keyEndsAt) });
    return principal;
  }
}
