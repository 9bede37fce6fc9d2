import { createChainWitness } from '@latchkey/webhook-verifier';
import { describe, expect, it } from 'vitest';
import { eventLeafHash } from '../activity/merkle/hashes.js';
import { verifyConsistency, verifyInclusion } from '../client/verify-proofs.js';
import { createCore } from '../core.js';
import { fromBase64, toBase64 } from '../encoding/base64.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { type DeliveredTreeCache, readDeliveredTrees, withDeliveredTree } from './delivered-tree.js';

const TOKEN = 'lk_delivered_tree_test_token_00000000000000';

async function world(events: number) {
  const core = createCore();
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  for (let i = 0; i < events; i++) {
    const response = await core.handle({
      method: 'POST',
      url: '/api/v2/organizations/acme/projects',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: `p${i}` }),
    });
    expect(response.status).toBe(201);
  }
  const orgId = (await core.store.organizations.getBySlug('acme'))!.id;
  const all = await core.store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 100 });
  return { core, orgId, all };
}

const bytes = (text: string) => fromBase64(text)!;

describe('the tree a delivery carries', () => {
  it('proves the event in the tree of its first seq events, and that tree extends the one before', async () => {
    const { core, orgId, all } = await world(12);
    let previousRoot: Uint8Array | null = null;
    // The receiver's witness, which copies the few lines of RFC 6962 and JCS it needs, agrees.
    const witness = createChainWitness();
    for (const event of all) {
      const json = JSON.stringify(event);
      const body = await withDeliveredTree(core.store, orgId, event.seq, json);
      expect(await witness.addDelivered(JSON.parse(body))).toBeNull();
      // The stored event comes first, byte for byte: its chain hash and signature stay as they were.
      expect(body.startsWith(json.slice(0, -1))).toBe(true);
      const { tree, ...delivered } = JSON.parse(body) as typeof event & {
        tree: { tree_size: number; root_hash: string; hashes: string[] };
      };
      expect(delivered).toEqual(event);
      expect(tree.tree_size).toBe(event.seq);
      const root = bytes(tree.root_hash);
      expect(
        verifyInclusion({
          leafHash: eventLeafHash(delivered),
          leafIndex: event.seq - 1,
          treeSize: event.seq,
          hashes: tree.hashes.map(bytes),
          rootHash: root,
        }),
      ).toBe(true);
      expect((await core.store.activity.treeHead(orgId, event.seq))!.rootHash).toEqual(root);
      if (previousRoot) {
        const proof = await core.handle({
          method: 'GET',
          url: `/api/v2/organizations/acme/activity/proofs/consistency?from=${event.seq - 1}&to=${event.seq}`,
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        const { hashes } = JSON.parse(proof.body as string) as { hashes: string[] };
        expect(
          verifyConsistency({
            from: event.seq - 1,
            to: event.seq,
            hashes: hashes.map(bytes),
            fromRoot: previousRoot,
            toRoot: root,
          }),
        ).toBe(true);
      }
      previousRoot = root;
    }
    expect(witness.treeHead('acme')).toEqual({
      tree_size: all.length,
      root_hash: toBase64((await core.store.activity.treeHead(orgId))!.rootHash),
    });
  });

  it('leaves the body alone where the tree does not reach', async () => {
    const { core, orgId, all } = await world(1);
    const json = JSON.stringify(all[0]);
    expect(await withDeliveredTree(core.store, orgId, all.length + 5, json)).toBe(json);
    expect(await withDeliveredTree(core.store, orgId, 0, json)).toBe(json);
    expect(await withDeliveredTree(core.store, 'org_missing', 1, json)).toBe(json);
  });

  it('reads the tree once per event for every webhook and retry, and again for another event at that seq', async () => {
    const { core, orgId, all } = await world(5);
    let reads = 0;
    const activity = new Proxy(core.store.activity, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'treeNodes' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads++;
          return value.apply(target, args);
        };
      },
    });
    const store = { activity };
    const cache: DeliveredTreeCache = new Map();
    const json = JSON.stringify(all[3]);
    // Eight webhooks' attempts claimed together, then retries.
    const together = await Promise.all(
      Array.from({ length: 8 }, () => withDeliveredTree(store, orgId, 4, json, cache)),
    );
    for (let i = 0; i < 5; i++)
      expect(await withDeliveredTree(store, orgId, 4, json, cache)).toBe(together[0]);
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toContain('"tree":{"tree_size":4');
    expect(reads).toBe(1);
    // A log rewritten under the same seq (a restore) has another chain hash: read afresh.
    const rewritten = JSON.stringify({ ...all[3], hash: 'f'.repeat(64) });
    await withDeliveredTree(store, orgId, 4, rewritten, cache);
    expect(reads).toBe(2);
    // A tree that does not reach is never remembered.
    await withDeliveredTree(store, orgId, 99, json, cache);
    await withDeliveredTree(store, orgId, 99, json, cache);
    expect(reads).toBe(4);
  });
});

/** The store's activity, counting the calls of `treeNodes` and the addresses asked. */
function counting(store: LatchkeyStore) {
  const seen = { reads: 0, addresses: 0 };
  const activity = new Proxy(store.activity, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name !== 'treeNodes' || typeof value !== 'function') return value;
      return (organizationId: string, addresses: unknown[]) => {
        seen.reads++;
        seen.addresses += addresses.length;
        return value.call(target, organizationId, addresses);
      };
    },
  });
  return { store: { activity }, seen };
}

describe('the tree fields of a claimed batch', () => {
  it('are read in one call, each distinct node once, and equal the fields read one by one', async () => {
    const { core, orgId, all } = await world(20);
    const { store, seen } = counting(core.store);
    const cache: DeliveredTreeCache = new Map();
    const events = all.map((event) => ({
      organizationId: orgId,
      seq: event.seq,
      json: JSON.stringify(event),
    }));
    // Every event twice, as for two webhooks.
    readDeliveredTrees(store, [...events, ...events], cache);
    expect(seen.reads).toBe(1);
    const bodies = await Promise.all(
      events.map(({ seq, json }) => withDeliveredTree(store, orgId, seq, json, cache)),
    );
    expect(seen.reads).toBe(1);
    for (const [i, { seq, json }] of events.entries()) {
      expect(bodies[i]).toBe(await withDeliveredTree(core.store, orgId, seq, json));
      expect(bodies[i]).toContain(`"tree":{"tree_size":${seq},`);
    }
    // Far fewer nodes than one read per event would ask (each asks about 2 log2(seq)).
    expect(seen.addresses).toBeLessThan(events.length * 4);
    // Already read: nothing more to read.
    readDeliveredTrees(store, events, cache);
    expect(seen.reads).toBe(1);
  });

  it('leaves out only the field of an event the tree does not reach', async () => {
    const { core, orgId, all } = await world(3);
    const { store, seen } = counting(core.store);
    const cache: DeliveredTreeCache = new Map();
    const json = JSON.stringify(all[1]);
    const beyond = JSON.stringify({ ...all[2], hash: 'e'.repeat(64) });
    readDeliveredTrees(
      store,
      [
        { organizationId: orgId, seq: all[1]!.seq, json },
        { organizationId: orgId, seq: 50, json: beyond },
      ],
      cache,
    );
    expect(await withDeliveredTree(store, orgId, all[1]!.seq, json, cache)).toContain('"tree":');
    expect(await withDeliveredTree(store, orgId, 50, beyond, cache)).toBe(beyond);
    // The batch read, then each event alone; what found no tree is not remembered, so is read again.
    expect(seen.reads).toBe(4);
    expect([...cache.keys()].some((key) => key.includes(':50:'))).toBe(false);
  });
});
