import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { type DeliveredTreeCache, readDeliveredTrees, withDeliveredTree } from './delivered-tree.js';

const TOKEN = 'lk_delivered_tree_batch_token_000000000000';

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
