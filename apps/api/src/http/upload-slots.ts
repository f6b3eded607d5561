import { DomainError } from '@ledger/errors';

export interface UploadLimits {
  perKeyMax: number;
  perAddressMax: number;
}

/** Seconds a refused upload is told to wait: an upload in progress usually takes that long to finish. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

/**
 * Uploads in progress per API key and per client address, in this process: each holds its slots from
 * the moment it is accepted until its response is closed (the file received, imported and removed).
 */
export class UploadSlots {
  private readonly perKey = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: UploadLimits) {}

  /** Takes a slot for the key and the address, or refuses with 429; the answer releases them (once). */
  acquire(keyId: string, address: string): () => void {
    const why =
      (this.perKey.get(keyId) ?? 0) >= this.limits.perKeyMax
        ? `this API key has ${this.limits.perKeyMax} uploads in progress already`
        : (this.perAddress.get(address) ?? 0) >= this.limits.perAddressMax
          ? `this address has ${this.limits.perAddressMax} uploads in progress already`
          : undefined;
    if (why !== undefined) {
      throw new DomainError('RATE_LIMITED', `${why}; retry in ${UPLOAD_RETRY_AFTER_SECONDS} s`, {
        retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS,
      });
    }
    increment(this.perKey, keyId, 1);
    increment(this.perAddress, address, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      increment(this.perKey, keyId, -1);
      increment(this.perAddress, address, -1);
    };
  }

  /** Slots held now, over all keys. */
  inUse(): number {
    let total = 0;
    for (const count of this.perKey.values()) total += count;
    return total;
  }
}

function increment(counts: Map<string, number>, id: string, by: number): void {
  const count = (counts.get(id) ?? 0) + by;
  if (count === 0) counts.delete(id);
  else counts.set(id, count);
}
