/**
 * RFC 6962 section 2.1's definitions written as literally as the RFC states them (MTH, PATH, PROOF
 * and SUBPROOF over the whole list of leaves, with Node's SHA-256): slow, and independent of the
 * incremental tree, the stored nodes and the pure SHA-256, so the tests compare the two.
 */
import { createHash } from 'node:crypto';

const sha = (...parts: Uint8Array[]): Uint8Array => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return new Uint8Array(h.digest());
};

const k = (n: number): number => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};

/** The reference implementation over leaf data `d`, memoizing MTH of each range. */
export function referenceTree(d: readonly Uint8Array[]) {
  const memo = new Map<string, Uint8Array>();
  const mth = (lo: number, hi: number): Uint8Array => {
    const key = `${lo}:${hi}`;
    const known = memo.get(key);
    if (known) return known;
    const n = hi - lo;
    let out: Uint8Array;
    if (n === 0) out = sha();
    else if (n === 1) out = sha(new Uint8Array([0]), d[lo]!);
    else out = sha(new Uint8Array([1]), mth(lo, lo + k(n)), mth(lo + k(n), hi));
    memo.set(key, out);
    return out;
  };
  const path = (m: number, lo: number, hi: number): Uint8Array[] => {
    const n = hi - lo;
    if (n <= 1) return [];
    const split = k(n);
    return m < split
      ? [...path(m, lo, lo + split), mth(lo + split, hi)]
      : [...path(m - split, lo + split, hi), mth(lo, lo + split)];
  };
  const subproof = (m: number, lo: number, hi: number, b: boolean): Uint8Array[] => {
    const n = hi - lo;
    if (m === n) return b ? [] : [mth(lo, hi)];
    const split = k(n);
    return m <= split
      ? [...subproof(m, lo, lo + split, b), mth(lo + split, hi)]
      : [...subproof(m - split, lo + split, hi, false), mth(lo, lo + split)];
  };
  return {
    /** MTH(D[0:size]). */
    root: (size: number) => mth(0, size),
    /** PATH(m, D[0:size]). */
    path: (m: number, size: number) => path(m, 0, size),
    /** PROOF(m, D[0:size]). */
    proof: (m: number, size: number) => (m === 0 || m === size ? [] : subproof(m, 0, size, true)),
  };
}
