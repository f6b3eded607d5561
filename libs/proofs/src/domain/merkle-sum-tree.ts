import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type AccountLeaf, leafHash, leafSums } from './account-leaf';
import { FixedWidthWriter } from './fixed-width';
import { type Sums, addSums, writeSums } from './sums';

export interface SumNode {
  hash: Buffer;
  sums: Sums;
}

/**
 * Interior node: SHA-256(u8 0x01 | left hash | left sums | right hash | right sums). The parent commits
 * to each child's sums separately (not only to their total), so a prover cannot move an amount from
 * one side to the other, and the sum it carries is checked against both on every step up.
 */
export function parentOf(left: SumNode, right: SumNode): SumNode {
  const writer = new FixedWidthWriter().uint('node tag', 1, 1).bytes('left hash', left.hash, 32);
  writeSums(writer, 'left', left.sums).bytes('right hash', right.hash, 32);
  writeSums(writer, 'right', right.sums);
  return { hash: createHash('sha256').update(writer.toBuffer()).digest(), sums: addSums(left.sums, right.sums) };
}

export function leafNode(leaf: AccountLeaf): SumNode {
  return { hash: leafHash(leaf), sums: leafSums(leaf) };
}

/** The largest power of two below n (n > 1): RFC 6962's split, so no leaf is ever duplicated as padding. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function rootOfNodes(nodes: readonly SumNode[]): SumNode {
  assert.ok(nodes.length > 0, 'a tree needs at least one leaf');
  if (nodes.length === 1) return nodes[0]!;
  const k = splitPoint(nodes.length);
  return parentOf(rootOfNodes(nodes.slice(0, k)), rootOfNodes(nodes.slice(k)));
}

/** The root over the leaves in the order given (the caller sorts them by account id). */
export function merkleSumRoot(leaves: readonly AccountLeaf[]): SumNode {
  return rootOfNodes(leaves.map(leafNode));
}

/** The siblings from leaf `index` up to the root, bottom first (RFC 6962 audit path, with sums). */
export function inclusionPath(leaves: readonly AccountLeaf[], index: number): SumNode[] {
  assert.ok(Number.isInteger(index) && index >= 0 && index < leaves.length, 'leaf index out of range');
  const path = (nodes: readonly SumNode[], at: number): SumNode[] => {
    if (nodes.length === 1) return [];
    const k = splitPoint(nodes.length);
    return at < k
      ? [...path(nodes.slice(0, k), at), rootOfNodes(nodes.slice(k))]
      : [...path(nodes.slice(k), at - k), rootOfNodes(nodes.slice(0, k))];
  };
  return path(leaves.map(leafNode), index);
}

/**
 * Recomputes the root from a leaf, its index, the tree size and the path (RFC 9162 section 2.1.3.2).
 * Returns undefined when the path does not fit the index and size.
 */
export function rootFromPath(
  leaf: AccountLeaf,
  index: number,
  size: number,
  path: readonly SumNode[],
): SumNode | undefined {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let node = leafNode(leaf);
  for (const sibling of path) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      node = parentOf(sibling, node);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      node = parentOf(node, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? node : undefined;
}
