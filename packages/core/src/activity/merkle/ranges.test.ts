import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeAddress } from '../../model/tree.js';
import { subtreesOf } from './ranges.js';

/** The complete subtrees of `[start, end)` by the definition: the largest aligned one first, again and again. */
function bySteps(start: number, end: number): NodeAddress[] {
  const out: NodeAddress[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= end) level++;
    out.push({ level, index: at / 2 ** level });
    at += 2 ** level;
  }
  return out;
}

/** A range the tree's proofs ask for: `start` a multiple of a power of two at least `end - start`. */
const treeRange = (most: number) =>
  fc.tuple(fc.integer({ min: 1, max: most }), fc.integer({ min: 0, max: 2 ** 20 })).map(([size, block]) => {
    let width = 1;
    while (width < size) width *= 2;
    const start = Math.min(block * width, Math.floor((Number.MAX_SAFE_INTEGER - size) / width) * width);
    return [start, start + size] as const;
  });

describe('subtreesOf', () => {
  it('gives the aligned complete subtrees, largest first, below 2^31 and above', () => {
    for (const most of [2 ** 12, 2 ** 30, 2 ** 40]) {
      fc.assert(
        fc.property(treeRange(most), ([start, end]) => {
          expect(subtreesOf(start, end)).toEqual(bySteps(start, end));
        }),
        { numRuns: 300 },
      );
    }
    expect(subtreesOf(0, 2 ** 31 - 1)).toEqual(bySteps(0, 2 ** 31 - 1));
    expect(subtreesOf(2 ** 31, 2 ** 31 + 5)).toEqual([
      { level: 2, index: 2 ** 29 },
      { level: 0, index: 2 ** 31 + 4 },
    ]);
  });

  it('refuses a range that is not one of the tree, on either path', () => {
    expect(() => subtreesOf(1, 3)).toThrow(RangeError);
    expect(() => subtreesOf(2 ** 32 + 1, 2 ** 32 + 3)).toThrow(RangeError);
    expect(subtreesOf(5, 5)).toEqual([]);
  });
});
