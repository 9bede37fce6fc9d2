/**
 * `verifyInclusion` and `verifyConsistency`: the RFC 9162 section 2.1.3.2 and 2.1.4.2 checks of a
 * Merkle inclusion or consistency proof against root hashes the caller trusts (from a checkpoint it
 * verified). Pure and synchronous: they run in a browser as well.
 */
import { nodeHash, sameHash } from '../activity/merkle/hashes.js';

/** An inclusion proof as the API gives it, its hashes decoded. */
export interface InclusionInput {
  /** The leaf's hash: `eventLeafHash(event)`. */
  leafHash: Uint8Array;
  /** `seq - 1`. */
  leafIndex: number;
  treeSize: number;
  hashes: readonly Uint8Array[];
  /** The root of the tree of `treeSize` leaves, trusted. */
  rootHash: Uint8Array;
}

/** A consistency proof as the API gives it, its hashes decoded. */
export interface ConsistencyInput {
  from: number;
  to: number;
  hashes: readonly Uint8Array[];
  /** The trusted roots of the trees of `from` and `to` leaves. */
  fromRoot: Uint8Array;
  toRoot: Uint8Array;
}

const isSize = (n: number) => Number.isSafeInteger(n) && n >= 0;
const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

function isPowerOfTwo(n: number): boolean {
  let m = n;
  while (m > 1 && m % 2 === 0) m /= 2;
  return m === 1;
}

/**
 * The walk up the tree both checks share: for each proof hash, `combine` it on the left of the
 * running hash or on its right, as the indices say, then move the indices up a level. False when
 * the path is longer or shorter than the tree is tall.
 */
function walk(
  first: number,
  last: number,
  hashes: readonly Uint8Array[],
  combine: (hash: Uint8Array, onTheLeft: boolean) => void,
): boolean {
  let fn = first;
  let sn = last;
  for (const hash of hashes) {
    if (sn === 0) return false;
    const onTheLeft = odd(fn) || fn === sn;
    combine(hash, onTheLeft);
    if (onTheLeft) {
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0;
}

/** Whether the leaf is at `leafIndex` of the tree whose root is `rootHash`. */
export function verifyInclusion(input: InclusionInput): boolean {
  const { leafIndex, treeSize, hashes } = input;
  if (!isSize(leafIndex) || !isSize(treeSize) || leafIndex >= treeSize) return false;
  let r = input.leafHash;
  const whole = walk(leafIndex, treeSize - 1, hashes, (p, onTheLeft) => {
    r = onTheLeft ? nodeHash(p, r) : nodeHash(r, p);
  });
  return whole && sameHash(r, input.rootHash);
}

/** Whether the tree of `to` leaves (root `toRoot`) extends the tree of `from` leaves (root `fromRoot`). */
export function verifyConsistency(input: ConsistencyInput): boolean {
  const { from, to, fromRoot, toRoot } = input;
  if (!isSize(from) || !isSize(to) || from > to) return false;
  if (from === to) return input.hashes.length === 0 && sameHash(fromRoot, toRoot);
  // Every tree extends the empty one; its root is fixed, and the proof is empty.
  if (from === 0) return input.hashes.length === 0;
  const path = [...input.hashes];
  // A power-of-two first tree is a complete subtree of the second: its root starts the path.
  if (isPowerOfTwo(from)) path.unshift(fromRoot);
  if (path.length === 0) return false;
  let fn = from - 1;
  let sn = to - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  const whole = walk(fn, sn, path.slice(1), (c, onTheLeft) => {
    if (onTheLeft) fr = nodeHash(c, fr);
    sr = onTheLeft ? nodeHash(c, sr) : nodeHash(sr, c);
  });
  return whole && sameHash(fr, fromRoot) && sameHash(sr, toRoot);
}
