import { generateKeyPairSync } from 'node:crypto';
import type { AccountLeaf } from '../src/domain/account-leaf';
import { buildBalanceProof } from '../src/domain/build-proof';
import type { StripeHead } from '../src/domain/checkpoint';
import type { BalanceProofDocument } from '../src/domain/proof-document';
import { type ProofKey, proofKeyFrom } from '../src/domain/signing';

// Test data for the proof specs: small books that balance, in two currencies.

export function testKey(): ProofKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return proofKeyFrom(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

export const TENANT = '0191a1b2-0000-7000-8000-000000000001';

export function accountId(n: number): string {
  return `0191a1b2-0000-7000-8000-${n.toString().padStart(12, '0')}`;
}

/** Five USD accounts and two EUR accounts; both currencies' trial balances are zero. */
export function testAccounts(): AccountLeaf[] {
  return [
    {
      id: accountId(11),
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
      postedDebits: 100_000n,
      postedCredits: 25_000n,
    },
    {
      id: accountId(12),
      code: 'liabilities:wallets:alice',
      currency: 'USD',
      normalBalance: 'credit',
      postedDebits: 5_000n,
      postedCredits: 60_000n,
    },
    {
      id: accountId(13),
      code: 'liabilities:wallets:bob',
      currency: 'USD',
      normalBalance: 'credit',
      postedDebits: 0n,
      postedCredits: 10_000n,
    },
    {
      id: accountId(14),
      code: 'income:fees',
      currency: 'USD',
      normalBalance: 'credit',
      postedDebits: 0n,
      postedCredits: 15_000n,
    },
    {
      id: accountId(15),
      code: 'equity:overdraft',
      currency: 'USD',
      normalBalance: 'credit',
      postedDebits: 5_000n,
      postedCredits: 0n,
    },
    {
      id: accountId(21),
      code: 'assets:bank:eur',
      currency: 'EUR',
      normalBalance: 'debit',
      postedDebits: 700n,
      postedCredits: 0n,
    },
    {
      id: accountId(22),
      code: 'liabilities:eur',
      currency: 'EUR',
      normalBalance: 'credit',
      postedDebits: 0n,
      postedCredits: 700n,
    },
  ];
}

export function testStripes(seqs: readonly number[] = [3, 0, 1, 2]): StripeHead[] {
  return seqs.map((seq, stripe) => ({ stripe, seq: BigInt(seq), hash: Buffer.alloc(32, seq === 0 ? 0 : stripe + 1) }));
}

export function testProof(
  key: ProofKey,
  accounts: AccountLeaf[] = testAccounts(),
  stripes: StripeHead[] = testStripes(),
): BalanceProofDocument {
  return buildBalanceProof(
    {
      tenantId: TENANT,
      asOf: new Date('2026-11-30T00:00:00.000Z'),
      issuedAt: new Date('2026-11-30T00:00:01.000Z'),
      stripes,
      accounts,
    },
    key,
  );
}
