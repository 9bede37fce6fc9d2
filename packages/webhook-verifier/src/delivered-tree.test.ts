import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createChainWitness } from './chain-witness.js';
import { canonicalJson, EMPTY_TREE_ROOT } from './delivered-tree.js';

const GENESIS = '0'.repeat(64);
const sha = (...parts: (Uint8Array | number[])[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(Uint8Array.from(part));
  return new Uint8Array(hash.digest());
};
const leafOf = (event: object) => sha([0], Buffer.from(canonicalJson(event)));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** RFC 6962 section 2.1, as written: MTH and PATH by recursion on the largest power of two below n. */
function mth(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha([]);
  if (leaves.length === 1) return leaves[0]!;
  const k = 2 ** Math.floor(Math.log2(leaves.length - 1));
  return sha([1], mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path(m: number, leaves: Uint8Array[]): Uint8Array[] {
  if (leaves.length <= 1) return [];
  const k = 2 ** Math.floor(Math.log2(leaves.length - 1));
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}

interface Delivered extends Record<string, unknown> {
  organization: string;
  seq: number;
  prev_hash: string;
  hash: string;
}

/** A log of n events of acme, delivered as Latchkey sends them: each with its `tree` field. */
function log(n: number, edit: (i: number) => string = (i) => `p${i}`): Delivered[] {
  const events: Delivered[] = [];
  const leaves: Uint8Array[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const prev = events[seq - 2]?.hash ?? GENESIS;
    const event = {
      id: `evt_${seq}`,
      type: 'project_created',
      organization: 'acme',
      seq,
      data: { project: edit(seq), note: 'ünïcode €', n: seq * 1.5 },
      prev_hash: prev,
      hash: createHash('sha256')
        .update(`${prev}${edit(seq)}`)
        .digest('hex'),
    };
    leaves.push(leafOf(event));
    const tree = { tree_size: seq, root_hash: b64(mth(leaves)), hashes: path(seq - 1, leaves).map(b64) };
    events.push({ ...event, tree });
  }
  return events;
}

describe('the tree heads deliveries carry', () => {
  it('link from the empty tree, in any order, into the head of the whole log', async () => {
    const events = log(37);
    const witness = createChainWitness();
    expect(witness.treeHead('acme')).toEqual({ tree_size: 0, root_hash: EMPTY_TREE_ROOT });
    for (const event of [...events].reverse()) expect(await witness.addDelivered(event)).toBeNull();
    expect(witness.treeHead('acme')).toEqual({
      tree_size: 37,
      root_hash: (events[36]!['tree'] as { root_hash: string }).root_hash,
    });
  });

  it('refuse an event edited in place, which keeps its links, and an altered proof', async () => {
    const events = log(9);
    const witness = createChainWitness();
    const edited = { ...events[4]!, data: { project: 'renamed' } };
    expect(witness.add(edited)).toBeNull();
    const fresh = createChainWitness();
    expect(await fresh.addDelivered(edited)).toMatchObject({ kind: 'bad_tree', seq: 5 });
    const tree = events[6]!['tree'] as { hashes: string[] };
    const flipped = { ...events[6]!, tree: { ...tree, hashes: [b64(sha([7])), ...tree.hashes.slice(1)] } };
    expect(await fresh.addDelivered(flipped)).toMatchObject({ kind: 'bad_tree', seq: 7 });
    const short = { ...events[6]!, tree: { ...tree, hashes: tree.hashes.slice(1) } };
    expect(await fresh.addDelivered(short)).toMatchObject({ kind: 'bad_tree', seq: 7 });
    expect(await fresh.addDelivered({ ...events[6]!, tree: { ...tree, tree_size: 8 } })).toMatchObject({
      kind: 'bad_tree',
    });
    expect(await fresh.addDelivered(events[6]!)).toBeNull();
  });

  it('refuse a delivery from a rewritten history (a split view) against the heads already seen', async () => {
    const original = log(6);
    // The same log with event 3 rewritten, and the chain and tree rebuilt over it: valid on its own.
    const rewritten = log(7, (i) => (i === 3 ? 'rewritten' : `p${i}`));
    const witness = createChainWitness();
    for (const event of original) expect(await witness.addDelivered(event)).toBeNull();
    const issue = await witness.addDelivered(rewritten[6]!);
    expect(issue).toMatchObject({ kind: 'forked_tree', organization: 'acme', seq: 7 });
    expect(issue!.message).toContain((rewritten[6]!['tree'] as { root_hash: string }).root_hash);
    // On its own, the rewritten history is consistent: only what was seen before exposes it.
    const other = createChainWitness();
    for (const event of rewritten) expect(await other.addDelivered(event)).toBeNull();
  });

  it('can start mid-log from a trusted tree head; old events without the field are only linked', async () => {
    const events = log(12);
    const head = events[9]!['tree'] as { tree_size: number; root_hash: string };
    const witness = createChainWitness(
      () => ({ seq: 10, hash: events[9]!.hash }),
      () => ({ tree_size: 10, root_hash: head.root_hash }),
    );
    expect(await witness.addDelivered(events[10]!)).toBeNull();
    const { tree: _tree, ...plain } = events[11]!;
    expect(await witness.addDelivered(plain as Delivered)).toBeNull();
    expect(witness.treeHead('acme').tree_size).toBe(11);
    expect(witness.head('acme').seq).toBe(12);
  });
});

describe('canonicalJson', () => {
  it('is RFC 8785: members sorted by UTF-16 code units (€ U+20AC before the surrogate U+D83D), ES numbers, no whitespace', () => {
    expect(
      canonicalJson({ b: [1, 1e21, 0.1, -0], a: 'é\u2028"', '\u20ac': null, '\ud83d\ude00': true, c: {} }),
    ).toBe('{"a":"é\u2028\\"","b":[1,1e+21,0.1,0],"c":{},"\u20ac":null,"\ud83d\ude00":true}');
  });
});
