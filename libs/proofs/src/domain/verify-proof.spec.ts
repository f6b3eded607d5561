import { randomBytes } from 'node:crypto';
import { chainHash } from '@ledger/ids';
import { describe, expect, it } from 'vitest';
import { testAccounts, testKey, testProof } from '../../test/proof-fixture';
import { inclusionProofOf } from './build-proof';
import type { BalanceProofDocument } from './proof-document';
import { CHECKS, type CheckName, verifyProof } from './verify-proof';

const key = testKey();

function copy<T>(value: T): T {
  return structuredClone(value);
}

function failsAt(input: unknown, check: CheckName, options = {}): void {
  const verdict = verifyProof(input, options);
  expect(verdict.ok, JSON.stringify(verdict.checks)).toBe(false);
  expect(verdict.firstFailure?.check, verdict.firstFailure?.detail).toBe(check);
}

describe('balance proof verification', () => {
  it('verifies a signed proof: every check passes, in order', () => {
    const verdict = verifyProof(testProof(key), { trustedKeyId: key.keyId.toString('hex') });
    expect(verdict.firstFailure).toBeNull();
    expect(verdict.checks.map((check) => check.check)).toEqual(
      CHECKS.filter((check) => check !== 'inclusion' && check !== 'consistency'),
    );
  });

  it('fails at the signature when one byte of the signature flips', () => {
    const proof = testProof(key);
    const signature = Buffer.from(proof.signature, 'base64');
    signature[17]! ^= 0x01;
    failsAt({ ...proof, signature: signature.toString('base64') }, 'signature');
  });

  it('fails at the signature when a signed field changes, and at the key when the key is not the trusted one', () => {
    const proof = testProof(key);
    failsAt({ ...proof, asOf: '2026-11-29T00:00:00.000Z' }, 'encoding'); // the id no longer matches
    const resigned = copy(proof);
    resigned.currencies[0]!.sums.debitNormalDebits = '701';
    failsAt(resigned, 'encoding');
    failsAt(proof, 'key', { trustedKeyId: testKey().keyId.toString('hex') });
    const other = testProof(testKey());
    failsAt({ ...other, signature: proof.signature }, 'signature');
  });

  it("fails at the balances when an account's balance is edited, and at the tree when its totals are", () => {
    const balance = copy(testProof(key));
    balance.accounts[0]!.balance = '1';
    failsAt(balance, 'balances');
    const totals = copy(testProof(key));
    const alice = totals.accounts.find((account) => account.code === 'liabilities:wallets:alice')!;
    alice.postedCredits = (BigInt(alice.postedCredits) - 100n).toString();
    alice.balance = (BigInt(alice.balance) - 100n).toString();
    failsAt(totals, 'tree');
    const dropped = copy(testProof(key));
    dropped.accounts.splice(1, 1);
    failsAt(dropped, 'tree');
  });

  it('fails at the totals when the books do not balance, even correctly signed', () => {
    const accounts = testAccounts();
    accounts[1]!.postedCredits += 1n;
    failsAt(testProof(key, accounts), 'totals');
    const edited = copy(testProof(key));
    edited.currencies[1]!.totals.creditNormal = '75001';
    failsAt(edited, 'totals');
  });

  it('fails at the journal head when the digest does not match the stripes', () => {
    const proof = testProof(key);
    failsAt({ ...proof, journal: { ...proof.journal, head: 'ab'.repeat(32) } }, 'journal head');
  });

  it('fails whichever single byte of the document flips', () => {
    const text = JSON.stringify(testProof(key, testAccounts().slice(5)));
    for (let at = 0; at < text.length; at++) {
      const flipped = text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 0x01) + text.slice(at + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(flipped);
      } catch {
        continue; // not JSON any more: the CLI refuses it before verifying
      }
      expect(verifyProof(parsed).ok, `byte ${at}: ${flipped.slice(Math.max(0, at - 20), at + 20)}`).toBe(false);
    }
  });
});

describe('inclusion proofs', () => {
  const proof = testProof(key);

  it("verifies every account's path to its currency's signed root", () => {
    for (const account of proof.accounts) {
      const inclusion = inclusionProofOf(proof, account.code)!;
      const verdict = verifyProof(JSON.parse(JSON.stringify(inclusion)), { account: account.id });
      expect(verdict.firstFailure, account.code).toBeNull();
      expect(verdict.checks.at(-1)).toMatchObject({ check: 'inclusion', ok: true });
    }
    expect(verifyProof(proof, { account: 'income:fees' }).ok).toBe(true);
    failsAt(proof, 'inclusion', { account: 'no:such:account' });
  });

  it('refuses a forged inclusion: another balance, an amount moved into a sibling, another account', () => {
    const inclusion = inclusionProofOf(proof, 'liabilities:wallets:bob')!;
    const richer = copy(inclusion);
    richer.account.postedCredits = '20000';
    richer.account.balance = '20000';
    failsAt(richer, 'inclusion');
    const moved = copy(inclusion);
    moved.account.postedCredits = '20000';
    moved.account.balance = '20000';
    const sibling = moved.path.find((node) => BigInt(node.sums.creditNormalCredits) >= 10_000n)!;
    sibling.sums.creditNormalCredits = (BigInt(sibling.sums.creditNormalCredits) - 10_000n).toString();
    failsAt(moved, 'inclusion');
    failsAt(inclusion, 'inclusion', { account: 'liabilities:wallets:alice' });
    failsAt({ ...inclusion, index: inclusion.index + 1 }, 'inclusion');
  });
});

describe('consistency between two proofs', () => {
  /** An earlier proof at heads [1, 0], a later one two links further on stripe 0 and one on stripe 1. */
  function twoProofs() {
    const encodings = [randomBytes(60), randomBytes(60), randomBytes(60), randomBytes(60)];
    const genesis = Buffer.alloc(32);
    const s0 = [chainHash(genesis, encodings[0]!)];
    s0.push(chainHash(s0[0]!, encodings[1]!), chainHash(chainHash(s0[0]!, encodings[1]!), encodings[2]!));
    const s1 = chainHash(genesis, encodings[3]!);
    const earlierStripes = [
      { stripe: 0, seq: 1n, hash: s0[0]! },
      { stripe: 1, seq: 0n, hash: genesis },
    ];
    const laterStripes = [
      { stripe: 0, seq: 3n, hash: s0[2]! },
      { stripe: 1, seq: 1n, hash: s1 },
    ];
    const earlier = testProof(key, testAccounts(), earlierStripes);
    const later: BalanceProofDocument = {
      ...testProof(key, testAccounts(), laterStripes),
      consistency: {
        previousId: earlier.id,
        stripes: [
          {
            stripe: 0,
            links: [
              { seq: '2', encoding: encodings[1]!.toString('hex') },
              { seq: '3', encoding: encodings[2]!.toString('hex') },
            ],
          },
          { stripe: 1, links: [{ seq: '1', encoding: encodings[3]!.toString('hex') }] },
        ],
      },
    };
    return { earlier, later };
  }

  it('verifies that the later journal extends the earlier one', () => {
    const { earlier, later } = twoProofs();
    const verdict = verifyProof(later, { previous: earlier });
    expect(verdict.firstFailure).toBeNull();
    expect(verdict.checks.at(-1)).toMatchObject({ check: 'consistency', ok: true });
  });

  it('fails at consistency when the segment drops, alters or re-orders a transaction', () => {
    const { earlier, later } = twoProofs();
    const dropped = copy(later);
    dropped.consistency!.stripes[0]!.links.splice(0, 1);
    failsAt(dropped, 'consistency', { previous: earlier });
    const altered = copy(later);
    altered.consistency!.stripes[1]!.links[0]!.encoding = 'ff'.repeat(60);
    failsAt(altered, 'consistency', { previous: earlier });
    const swapped = copy(later);
    const links = swapped.consistency!.stripes[0]!.links;
    [links[0]!.encoding, links[1]!.encoding] = [links[1]!.encoding, links[0]!.encoding];
    failsAt(swapped, 'consistency', { previous: earlier });
    failsAt({ ...later, consistency: undefined }, 'consistency', { previous: earlier });
    failsAt(later, 'consistency', { previous: { ...earlier, signature: later.signature } });
    failsAt(later, 'consistency', { previous: inclusionProofOf(earlier, 'income:fees') });
    failsAt(later, 'consistency', { previous: 'not a proof' });
  });
});
