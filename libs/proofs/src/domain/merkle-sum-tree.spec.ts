import { describe, expect, it } from 'vitest';
import { accountId, testAccounts } from '../../test/proof-fixture';
import type { AccountLeaf } from './account-leaf';
import { EncodingRangeError } from './fixed-width';
import { inclusionPath, leafNode, merkleSumRoot, parentOf, rootFromPath } from './merkle-sum-tree';
import { sumsEqual } from './sums';

function leaves(n: number): AccountLeaf[] {
  return Array.from({ length: n }, (_, index) => ({
    id: accountId(index + 1),
    code: `acct:${index}`,
    currency: 'USD',
    normalBalance: index % 2 === 0 ? 'debit' : 'credit',
    postedDebits: BigInt(index * 7),
    postedCredits: BigInt(index * 3),
  }));
}

describe('Merkle sum tree', () => {
  it('gives every leaf of trees of 1 to 33 leaves a path that leads to the root with its sums', () => {
    for (let n = 1; n <= 33; n++) {
      const tree = leaves(n);
      const root = merkleSumRoot(tree);
      for (let index = 0; index < n; index++) {
        const computed = rootFromPath(tree[index]!, index, n, inclusionPath(tree, index));
        expect(computed?.hash.equals(root.hash), `leaf ${index} of ${n}`).toBe(true);
        expect(sumsEqual(computed!.sums, root.sums)).toBe(true);
      }
    }
  });

  it('refuses a path used with another index, size or leaf', () => {
    const tree = leaves(9);
    const root = merkleSumRoot(tree);
    const path = inclusionPath(tree, 4);
    expect(rootFromPath(tree[4]!, 5, 9, path)?.hash.equals(root.hash) ?? false).toBe(false);
    expect(rootFromPath(tree[4]!, 4, 8, path)?.hash.equals(root.hash) ?? false).toBe(false);
    expect(
      rootFromPath({ ...tree[4]!, postedDebits: tree[4]!.postedDebits + 1n }, 4, 9, path)?.hash.equals(root.hash),
    ).toBe(false);
    expect(rootFromPath(tree[4]!, 9, 9, path)).toBeUndefined();
  });

  it('sums the debit-normal and credit-normal totals apart, and they balance for balanced books', () => {
    const root = merkleSumRoot(testAccounts().filter((leaf) => leaf.currency === 'USD'));
    expect(root.sums).toEqual({
      debitNormalDebits: 100_000n,
      debitNormalCredits: 25_000n,
      creditNormalDebits: 10_000n,
      creditNormalCredits: 85_000n,
    });
  });

  it('commits to each child sum: moving an amount between siblings changes the parent hash', () => {
    const [left, right] = [leaves(5)[2]!, leaves(5)[4]!].map(leafNode);
    const parent = parentOf(left!, right!);
    const moved = parentOf(
      { ...left!, sums: { ...left!.sums, debitNormalDebits: left!.sums.debitNormalDebits + 5n } },
      { ...right!, sums: { ...right!.sums, debitNormalDebits: right!.sums.debitNormalDebits - 5n } },
    );
    expect(sumsEqual(moved.sums, parent.sums)).toBe(true);
    expect(moved.hash.equals(parent.hash)).toBe(false);
  });

  it('refuses sums that would pass 2^63 - 1 and totals outside 0..2^63-1, rather than wrapping', () => {
    const big: AccountLeaf = {
      id: accountId(1),
      code: 'a',
      currency: 'USD',
      normalBalance: 'debit',
      postedDebits: 2n ** 62n,
      postedCredits: 0n,
    };
    expect(() => merkleSumRoot([big, { ...big, id: accountId(2), code: 'b' }])).toThrow(EncodingRangeError);
    expect(() => merkleSumRoot([{ ...big, postedDebits: -1n }])).toThrow(EncodingRangeError);
    expect(() => merkleSumRoot([{ ...big, postedDebits: 2n ** 63n }])).toThrow(EncodingRangeError);
    expect(() => merkleSumRoot([{ ...big, code: 'x'.repeat(129) }])).toThrow(EncodingRangeError);
    expect(() => merkleSumRoot([{ ...big, currency: 'usd' }])).toThrow(EncodingRangeError);
  });
});
