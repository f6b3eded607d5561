import { describe, expect, it } from 'vitest';
import type { ApiKeyRepository, StoredApiKey } from './api-key.repository';
import { issueApiKey } from './api-key-secret';
import { AuthenticateUseCase } from './authenticate.use-case';
import { AuthLimits } from './rate-limiter';

const TENANT_ID = '0193a5b0-0000-7000-8000-000000000001';
const KEY_ID = '0193a5b0-0000-7000-8000-000000000002';

/** Key reads that wait until `answer` is called, counted. */
class HeldKeyReads {
  reads = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly stored: StoredApiKey) {}

  readonly repository = {
    find: async () => {
      this.reads++;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      return this.stored;
    },
  } as unknown as ApiKeyRepository;

  answer(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

function setUp() {
  const issued = issueApiKey(TENANT_ID, KEY_ID);
  const reads = new HeldKeyReads({
    tenantId: TENANT_ID,
    id: KEY_ID,
    secretHash: issued.secretHash,
    roles: ['poster'],
    revokedAt: null,
    expiresAt: null,
  });
  const authenticate = new AuthenticateUseCase(reads.repository, new AuthLimits({ keyCacheSeconds: 10 }));
  return { plaintext: issued.plaintext, reads, authenticate };
}

describe('AuthenticateUseCase', () => {
  it('reads a key once for the requests that present it at the same time, then remembers it', async () => {
    const { plaintext, reads, authenticate } = setUp();
    const principals = Array.from({ length: 16 }, () => authenticate.execute(plaintext, 1_000));
    await Promise.resolve();
    reads.answer();
    for (const principal of await Promise.all(principals)) expect(principal?.keyId).toBe(KEY_ID);
    expect(reads.reads).toBe(1);
    expect((await authenticate.execute(plaintext, 2_000))?.keyId).toBe(KEY_ID);
    expect(reads.reads).toBe(1);
  });

  it('reads the key again once it is no longer remembered', async () => {
    const { plaintext, reads, authenticate } = setUp();
    const first = authenticate.execute(plaintext, 1_000);
    await Promise.resolve();
    reads.answer();
    await first;
    const afterExpiry = authenticate.execute(plaintext, 1_000 + 10_001);
    await Promise.resolve();
    reads.answer();
    expect((await afterExpiry)?.keyId).toBe(KEY_ID);
    expect(reads.reads).toBe(2);
  });

  it('does not remember a key read while it was being revoked', async () => {
    const { plaintext, reads, authenticate } = setUp();
    const during = authenticate.execute(plaintext, 1_000);
    await Promise.resolve();
    authenticate.forget(TENANT_ID, KEY_ID);
    reads.answer();
    await during;
    const later = authenticate.execute(plaintext, 2_000);
    await Promise.resolve();
    reads.answer();
    await later;
    expect(reads.reads).toBe(2);
  });

  it('does not hand a lookup begun before a revocation to the requests that come after it', async () => {
    const { plaintext, reads, authenticate } = setUp();
    const before = authenticate.execute(plaintext, 1_000);
    await Promise.resolve();
    authenticate.forget(TENANT_ID, KEY_ID);
    const after = authenticate.execute(plaintext, 1_000);
    await Promise.resolve();
    reads.answer();
    await Promise.all([before, after]);
    expect(reads.reads).toBe(2);
  });
});
