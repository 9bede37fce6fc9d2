/**
 * Where a proof's hashes come from: RFC 6962 section 2.1 defines each proof hash as the root of a
 * range of leaves `[start, end)`, and each such range is a run of complete subtrees, the only nodes
 * a store keeps. A node is addressed by its level (0 for leaves) and its index at that level: it
 * covers the leaves `[index * 2^level, (index + 1) * 2^level)`.
 */
import type { NodeAddress } from '../../model/tree.js';

/** A range of leaves `[start, end)` whose root a proof carries. */
export type LeafRange = readonly [start: number, end: number];

/** The largest power of two strictly below `n` (n >= 2): where RFC 6962 splits a tree of `n` leaves. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees whose right fold is the root of `[start, end)`, left to right: one per bit of
 * `end - start`, the largest first. RFC 6962's split puts the largest power of two on the left, so
 * for every range the recursion produces (`start` a multiple of a power of two at least the size)
 * this is exactly its MTH.
 */
export function subtreesOf(start: number, end: number): NodeAddress[] {
  // Below 2^31 (every tree in practice), the same steps in 32-bit integers: every delivery asks.
  if (start >= 0 && end > start && end <= 0x7fffffff) return smallSubtreesOf(start, end);
  const out: NodeAddress[] = [];
  let at = start;
  let level = 0;
  while (2 ** (level + 1) <= end - start) level++;
  for (; level >= 0 && at < end; level--) {
    const width = 2 ** level;
    if (at + width > end) continue;
    if (at % width !== 0) throw new RangeError(`[${start}, ${end}) is not a range of the tree`);
    out.push({ level, index: at / width });
    at += width;
  }
  return out;
}

/** {@link subtreesOf} for `0 <= start < end < 2^31`. */
function smallSubtreesOf(start: number, end: number): NodeAddress[] {
  const out: NodeAddress[] = [];
  let at = start;
  for (let level = 31 - Math.clz32(end - start); level >= 0 && at < end; level--) {
    const width = 1 << level;
    if (at + width > end) continue;
    if ((at & (width - 1)) !== 0) throw new RangeError(`[${start}, ${end}) is not a range of the tree`);
    out.push({ level, index: at >>> level });
    at += width;
  }
  return out;
}

/** The ranges of an inclusion proof (RFC 6962 PATH) of leaf `index` in a tree of `size`, leaf upward. */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  const out: LeafRange[] = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      out.push([lo + k, hi]);
      hi = lo + k;
    } else {
      out.push([lo, lo + k]);
      lo += k;
    }
  }
  return out.reverse();
}

/**
 * The ranges of a consistency proof (RFC 6962 PROOF / SUBPROOF) from size `from` to size `to`
 * (0 < from <= to), in proof order.
 */
export function consistencyRanges(from: number, to: number): LeafRange[] {
  const out: LeafRange[] = [];
  if (from === 0 || from === to) return out;
  let lo = 0;
  let hi = to;
  let whole = true;
  for (;;) {
    if (from === hi) {
      if (!whole) out.push([lo, hi]);
      break;
    }
    const k = splitPoint(hi - lo);
    if (from <= lo + k) {
      out.push([lo + k, hi]);
      hi = lo + k;
    } else {
      out.push([lo, lo + k]);
      lo += k;
      whole = false;
    }
  }
  return out.reverse();
}
