/**
 * Proofs from the stored complete subtrees: each proof hash is the root of a range of leaves
 * (`ranges.ts`), made of at most log2(n) stored nodes, and all the nodes of one proof are asked of
 * the store at once, so a proof costs one read of O(log n) rows.
 */

import type { NodeAddress } from '../../model/tree.js';
import { consistencyRanges, inclusionRanges, type LeafRange, subtreesOf } from './ranges.js';
import { foldRoots } from './tree-state.js';

/** Reads stored nodes: their hashes in the order asked; throws when one is missing. */
export type NodeReader = (addresses: readonly NodeAddress[]) => Promise<readonly Uint8Array[]>;

/** The roots of `ranges`, reading every node they need in one call. */
async function rangeRoots(ranges: readonly LeafRange[], read: NodeReader): Promise<Uint8Array[]> {
  const plans = ranges.map(([start, end]) => subtreesOf(start, end));
  const hashes = plans.length === 0 ? [] : await read(plans.flat());
  let at = 0;
  return plans.map((plan) => {
    const roots = hashes.slice(at, at + plan.length);
    at += plan.length;
    return foldRoots(roots);
  });
}

/** The audit path (RFC 6962 PATH) of leaf `index` in the tree of `size` leaves. */
export function inclusionProof(index: number, size: number, read: NodeReader): Promise<Uint8Array[]> {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  return rangeRoots(inclusionRanges(index, size), read);
}

/** The consistency proof (RFC 6962 PROOF) from the tree of `from` leaves to that of `to`. */
export function consistencyProof(from: number, to: number, read: NodeReader): Promise<Uint8Array[]> {
  if (!(from >= 0 && from <= to)) throw new RangeError(`no consistency proof from ${from} to ${to}`);
  return rangeRoots(consistencyRanges(from, to), read);
}

/** The root hash of the tree's first `size` leaves. */
export async function rootAt(size: number, read: NodeReader): Promise<Uint8Array> {
  if (size === 0) return foldRoots([]);
  return (await rangeRoots([[0, size]], read))[0]!;
}

/** The audit paths of several leaves in the tree of `size` leaves, reading every node they need in one call. */
export async function inclusionProofs(
  indices: readonly number[],
  size: number,
  read: NodeReader,
): Promise<Uint8Array[][]> {
  const perLeaf = indices.map((index) => {
    if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
    return inclusionRanges(index, size);
  });
  const roots = await rangeRoots(perLeaf.flat(), read);
  let at = 0;
  return perLeaf.map((ranges) => {
    const path = roots.slice(at, at + ranges.length);
    at += ranges.length;
    return path;
  });
}
