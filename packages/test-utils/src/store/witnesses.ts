/**
 * The transparency log's part of the store conformance suite: witnesses unique per organization by
 * name and key and bounded in number even when adds race; cosignatures kept per tree head and
 * witness (the newest), only from registered witnesses, for a bounded number of heads, and gone
 * with their witness.
 */
import type { Cosignature, LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface WitnessFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const at = '2026-11-25T00:00:00.000Z';
const key = (n: number) => Buffer.alloc(32, n).toString('base64');

async function organization(store: LatchkeyStore, id: (prefix: string) => string): Promise<string> {
  const organizationId = id('org');
  await store.organizations.create({
    id: organizationId,
    slug: `w-${organizationId}`,
    name: 'W',
    created_at: at,
  });
  return organizationId;
}

const cosignature = (
  organizationId: string,
  treeSize: number,
  witness: string,
  timestamp: number,
): Cosignature => ({
  organization_id: organizationId,
  tree_size: treeSize,
  root_hash: key(treeSize),
  witness,
  timestamp,
  line: `\u2014 ${witness} line-${treeSize}-${timestamp}`,
});

/** Registers the tests; `fixture` is read when each test runs. */
export function describeWitnessStoreTests(fixture: () => WitnessFixture): void {
  it('witnesses: unique by name and by key per organization, listed by name, removed once', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    const other = await organization(store, id);
    const w = (name: string, n: number, o = org) => ({
      organization_id: o,
      name,
      public_key: key(n),
      created_at: at,
    });
    expect(await store.witnesses.add(w('b.example/w', 1), 32)).toBe('added');
    expect(await store.witnesses.add(w('a.example/w', 2), 32)).toBe('added');
    expect(await store.witnesses.add(w('b.example/w', 3), 32)).toBe('duplicate');
    expect(await store.witnesses.add(w('c.example/w', 1), 32)).toBe('duplicate');
    // Another organization may register the same witness.
    expect(await store.witnesses.add(w('b.example/w', 1, other), 32)).toBe('added');
    expect((await store.witnesses.list(org)).map((x) => x.name)).toEqual(['a.example/w', 'b.example/w']);
    expect(await store.witnesses.remove(org, 'b.example/w')).toEqual(w('b.example/w', 1));
    expect(await store.witnesses.remove(org, 'b.example/w')).toBeNull();
    expect((await store.witnesses.list(other)).map((x) => x.name)).toEqual(['b.example/w']);
  });

  it('witnesses: concurrent adds never pass the limit', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        store.witnesses.add(
          { organization_id: org, name: `w${n}.example`, public_key: key(n), created_at: at },
          3,
        ),
      ),
    );
    expect(results.filter((r) => r === 'added')).toHaveLength(3);
    expect(results.filter((r) => r === 'limit')).toHaveLength(5);
    expect(await store.witnesses.list(org)).toHaveLength(3);
  });

  it('cosignatures: the newest per head and witness, only from registered witnesses, for the largest heads', async () => {
    const { store, id } = fixture();
    const org = await organization(store, id);
    await store.witnesses.add(
      { organization_id: org, name: 'w.example', public_key: key(7), created_at: at },
      32,
    );
    await store.witnesses.add(
      { organization_id: org, name: 'v.example', public_key: key(8), created_at: at },
      32,
    );
    expect(await store.witnesses.putCosignature(cosignature(org, 5, 'nobody.example', 10), 3)).toBe(false);
    expect(await store.witnesses.putCosignature(cosignature(org, 5, 'w.example', 10), 3)).toBe(true);
    expect(await store.witnesses.putCosignature(cosignature(org, 5, 'w.example', 9), 3)).toBe(true);
    expect(await store.witnesses.putCosignature(cosignature(org, 5, 'v.example', 11), 3)).toBe(true);
    expect(await store.witnesses.cosignatures(org, 5, key(5))).toEqual([
      cosignature(org, 5, 'v.example', 11),
      cosignature(org, 5, 'w.example', 10),
    ]);
    expect(await store.witnesses.putCosignature(cosignature(org, 5, 'w.example', 12), 3)).toBe(true);
    expect((await store.witnesses.cosignatures(org, 5, key(5)))[1]).toEqual(
      cosignature(org, 5, 'w.example', 12),
    );
    expect(await store.witnesses.cosignatures(org, 5, key(6))).toEqual([]);
    for (const size of [6, 7, 8])
      await store.witnesses.putCosignature(cosignature(org, size, 'w.example', 20), 3);
    expect(await store.witnesses.cosignatures(org, 5, key(5))).toEqual([]);
    expect(await store.witnesses.cosignatures(org, 6, key(6))).toHaveLength(1);
    await store.witnesses.remove(org, 'w.example');
    expect(await store.witnesses.cosignatures(org, 8, key(8))).toEqual([]);
  });
}
