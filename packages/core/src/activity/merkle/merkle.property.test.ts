import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyConsistency, verifyInclusion } from '../../client/verify-proofs.js';
import { leafHash } from './hashes.js';
import { consistencyProof, inclusionProof, type NodeReader, rootAt } from './proofs.js';
import { referenceTree } from './rfc6962-reference.js';
import { sha256 } from './sha256.js';
import { appendLeaves, EMPTY_TREE, type StoredNode, treeRoot } from './tree-state.js';

/** A tree built by appending `data` in chunks, with a reader over the nodes the appends produced. */
function build(data: readonly Uint8Array[], chunks: readonly number[]) {
  let tree = EMPTY_TREE;
  const nodes = new Map<string, Uint8Array>();
  const keep = (added: StoredNode[]) => {
    for (const n of added) nodes.set(`${n.level}:${n.index}`, n.hash);
  };
  let at = 0;
  for (let c = 0; at < data.length; c++) {
    const take = Math.max(1, chunks[c % Math.max(1, chunks.length)] ?? 1);
    const step = appendLeaves(tree, data.slice(at, at + take).map(leafHash));
    tree = step.tree;
    keep(step.nodes);
    at += take;
  }
  const read: NodeReader = async (addresses) =>
    addresses.map((a) => {
      const hash = nodes.get(`${a.level}:${a.index}`);
      if (!hash) throw new Error(`node ${a.level}:${a.index} missing`);
      return hash;
    });
  return { tree, read, nodes };
}

const flip = (bytes: Uint8Array, bit: number): Uint8Array => {
  const out = bytes.slice();
  out[Math.floor(bit / 8) % out.length]! ^= 1 << (bit % 8);
  return out;
};

const leaves = (max: number) =>
  fc.array(fc.uint8Array({ minLength: 0, maxLength: 40 }), { minLength: 1, maxLength: max });

describe('the pure SHA-256', () => {
  it('equals Node’s for every length around the block boundaries and random data', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (data) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(Buffer.from(sha256(data)).toString('hex')).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the Merkle tree against RFC 6962 section 2.1', () => {
  it('every inclusion and consistency proof of small logs equals the reference and verifies', async () => {
    await fc.assert(
      fc.asyncProperty(leaves(40), fc.array(fc.integer({ min: 1, max: 7 })), async (data, chunks) => {
        const { tree, read } = build(data, chunks);
        const ref = referenceTree(data);
        expect(tree.size).toBe(data.length);
        expect(treeRoot(tree)).toEqual(ref.root(data.length));
        for (let size = 1; size <= data.length; size++) {
          const root = await rootAt(size, read);
          expect(root).toEqual(ref.root(size));
          for (let i = 0; i < size; i++) {
            const hashes = await inclusionProof(i, size, read);
            expect(hashes).toEqual(ref.path(i, size));
            const input = {
              leafHash: leafHash(data[i]!),
              leafIndex: i,
              treeSize: size,
              hashes,
              rootHash: root,
            };
            expect(verifyInclusion(input)).toBe(true);
          }
          for (let from = 0; from <= size; from++) {
            const hashes = await consistencyProof(from, size, read);
            expect(hashes).toEqual(ref.proof(from, size));
            const fromRoot = ref.root(from);
            expect(verifyConsistency({ from, to: size, hashes, fromRoot, toRoot: root })).toBe(true);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('proofs in logs of up to 5,000 leaves equal the reference and verify', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 10, maxLength: 10 }),
        async (n, chunks, picks) => {
          const data = Array.from({ length: n }, (_, i) => new TextEncoder().encode(`leaf ${i} of ${n}`));
          const { tree, read } = build(data, chunks);
          const ref = referenceTree(data);
          expect(treeRoot(tree)).toEqual(ref.root(n));
          for (const [a, b, c] of picks) {
            const size = 1 + (a % n);
            const index = b % size;
            const from = c % (size + 1);
            const root = ref.root(size);
            const path = await inclusionProof(index, size, read);
            expect(path).toEqual(ref.path(index, size));
            const leaf = leafHash(data[index]!);
            expect(
              verifyInclusion({
                leafHash: leaf,
                leafIndex: index,
                treeSize: size,
                hashes: path,
                rootHash: root,
              }),
            ).toBe(true);
            const proof = await consistencyProof(from, size, read);
            expect(proof).toEqual(ref.proof(from, size));
            expect(
              verifyConsistency({ from, to: size, hashes: proof, fromRoot: ref.root(from), toRoot: root }),
            ).toBe(true);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('any flipped bit fails', () => {
  it('in the leaf, a proof hash, the root, or an index', async () => {
    await fc.assert(
      fc.asyncProperty(leaves(300), fc.nat(), fc.nat(), fc.nat(), async (data, a, b, bit) => {
        const n = data.length;
        const { read } = build(data, [3]);
        const size = 1 + (a % n);
        const index = b % size;
        const root = await rootAt(size, read);
        const hashes = await inclusionProof(index, size, read);
        const leaf = leafHash(data[index]!);
        const base = { leafHash: leaf, leafIndex: index, treeSize: size, hashes, rootHash: root };
        expect(verifyInclusion(base)).toBe(true);
        const dataFlipped = data[index]!.length > 0 ? flip(data[index]!, bit) : new Uint8Array([1]);
        expect(verifyInclusion({ ...base, leafHash: leafHash(dataFlipped) })).toBe(false);
        expect(verifyInclusion({ ...base, rootHash: flip(root, bit) })).toBe(false);
        if (hashes.length > 0) {
          const at = bit % hashes.length;
          const bad = hashes.map((h, i) => (i === at ? flip(h, bit >> 3) : h));
          expect(verifyInclusion({ ...base, hashes: bad })).toBe(false);
          expect(verifyInclusion({ ...base, hashes: hashes.slice(1) })).toBe(false);
        }
        expect(verifyInclusion({ ...base, hashes: [...hashes, root] })).toBe(false);
        // Another index fails unless the sibling leaf holds the same data (then the tree is symmetric there).
        const other = (index + 1) % size;
        const twin = Buffer.from(data[other]!).equals(Buffer.from(data[index]!));
        if (size > 1 && !twin) expect(verifyInclusion({ ...base, leafIndex: other })).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('in a consistency proof or either root', async () => {
    await fc.assert(
      fc.asyncProperty(leaves(300), fc.nat(), fc.nat(), fc.nat(), async (data, a, b, bit) => {
        const n = data.length;
        const { read } = build(data, [5]);
        const to = 1 + (a % n);
        const from = 1 + (b % to);
        const fromRoot = await rootAt(from, read);
        const toRoot = await rootAt(to, read);
        const hashes = await consistencyProof(from, to, read);
        const base = { from, to, hashes, fromRoot, toRoot };
        expect(verifyConsistency(base)).toBe(true);
        expect(verifyConsistency({ ...base, fromRoot: flip(fromRoot, bit) })).toBe(false);
        expect(verifyConsistency({ ...base, toRoot: flip(toRoot, bit) })).toBe(false);
        if (hashes.length > 0) {
          const at = bit % hashes.length;
          const bad = hashes.map((h, i) => (i === at ? flip(h, bit >> 3) : h));
          expect(verifyConsistency({ ...base, hashes: bad })).toBe(false);
        }
        if (from < to) expect(verifyConsistency({ ...base, from: to, to: from })).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
