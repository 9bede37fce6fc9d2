/**
 * Growing an organization's Merkle tree one leaf at a time from its right frontier alone: the
 * roots of the complete subtrees along the right edge (one per bit of the size, at most 64), kept
 * with the chain head. An append needs nothing else, and returns every complete node it finishes,
 * which is all a store keeps of the tree.
 */

import type { NodeAddress } from '../../model/tree.js';
import { emptyRoot, nodeHash } from './hashes.js';

/** The tree of one organization, as much as an append needs. */
export interface TreeState {
  /** Leaves in the tree (the chain's `seq` once the tree is current). */
  size: number;
  /** The complete subtrees' roots along the right edge, left (largest) to right. */
  frontier: readonly Uint8Array[];
}

/** A complete subtree's root, as a store keeps it. */
export interface StoredNode extends NodeAddress {
  hash: Uint8Array;
}

/** The empty tree. */
export const EMPTY_TREE: TreeState = { size: 0, frontier: [] };

/** Appends leaves (their hashes) to `tree`: the new state and the complete nodes it finished. */
export function appendLeaves(
  tree: TreeState,
  leafHashes: Iterable<Uint8Array>,
): { tree: TreeState; nodes: StoredNode[] } {
  let size = tree.size;
  const frontier = [...tree.frontier];
  const nodes: StoredNode[] = [];
  for (const leaf of leafHashes) {
    let hash = leaf;
    let level = 0;
    let index = size;
    nodes.push({ level, index, hash });
    // An odd index is a right child: its left sibling is the frontier's last root, now complete.
    while (index % 2 === 1) {
      hash = nodeHash(frontier.pop()!, hash);
      level++;
      index = (index - 1) / 2;
      nodes.push({ level, index, hash });
    }
    frontier.push(hash);
    size++;
  }
  return { tree: { size, frontier }, nodes };
}

/** The root hash of the tree (RFC 6962 MTH): the frontier folded from the right. */
export function treeRoot(tree: TreeState): Uint8Array {
  return foldRoots(tree.frontier);
}

/** The root over consecutive complete subtrees' roots, left to right (SHA-256 of nothing for none). */
export function foldRoots(roots: readonly Uint8Array[]): Uint8Array {
  if (roots.length === 0) return emptyRoot();
  let hash = roots[roots.length - 1]!;
  for (let i = roots.length - 2; i >= 0; i--) hash = nodeHash(roots[i]!, hash);
  return hash;
}

/** Concatenates a frontier into bytes, for a store's column. */
export function packFrontier(frontier: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frontier.length * 32);
  frontier.forEach((hash, i) => {
    out.set(hash, i * 32);
  });
  return out;
}

/** Splits a frontier's bytes back into hashes. */
export function unpackFrontier(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at + 32 <= bytes.length; at += 32) out.push(bytes.slice(at, at + 32));
  return out;
}
