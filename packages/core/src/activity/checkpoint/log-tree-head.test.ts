import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../memory/index.js';
import { treeHeadOf } from './log-tree-head.js';

const sha = (...parts: (Buffer | string)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** RFC 6962 section 2.1, as written: MTH({}) = SHA-256(), leaves 0x00, split at the largest power of two below n. */
function reference(leaves: string[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Buffer.of(0), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.of(1), reference(leaves.slice(0, k)), reference(leaves.slice(k)));
}

describe('treeHeadOf', () => {
  it('is the RFC 6962 Merkle Tree Hash of the events’ JCS, at every size', async () => {
    const store = createMemoryStore();
    await store.organizations.create({
      id: 'org_1',
      slug: 'acme',
      name: 'Acme',
      created_at: '2026-11-25T00:00:00.000Z',
    });
    for (let i = 0; i < 37; i++) {
      await store.activity.append('org_1', {
        id: `evt_${i}`,
        type: 'project_created',
        occurred_at: '2026-11-25T00:00:00.000Z',
        organization: 'acme',
        actor: { type: 'system', id: 'test' },
        data: { n: i },
      } as never);
    }
    const events = await store.activity.list({ organizationId: 'org_1', oldestFirst: true, limit: 100 });
    const leaves = events.map((e) => canonicalize(e)!);
    for (const size of [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 37]) {
      const head = await treeHeadOf(store, 'org_1', size);
      expect(head?.size).toBe(size);
      expect(Buffer.from(head!.rootHash).toString('hex'), `size ${size}`).toBe(
        reference(leaves.slice(0, size)).toString('hex'),
      );
    }
    expect((await treeHeadOf(store, 'org_1'))?.size).toBe(37);
    expect(await treeHeadOf(store, 'org_1', 38)).toBeNull();
    expect(await treeHeadOf(store, 'org_1', -1)).toBeNull();
  });
});
