/**
 * The Merkle tree part of the store conformance suite: every path that appends to a chain (appends,
 * pushes, pushes in a transaction, a restore's inserts) grows the tree in the same step, so its head
 * at every size equals the RFC 6962 root of the events history returns, every inclusion and
 * consistency proof from the stored nodes verifies, concurrent appends leave one tree, a rolled-back
 * transaction leaves it as it was, and a restore rebuilds it from the restored events.
 */
import type { LatchkeyStore } from '@latchkey/core';
import { verifyConsistency, verifyInclusion } from '@latchkey/core/client';
import {
  type ActivityDraft,
  appendLeaves,
  consistencyProof,
  EMPTY_TREE,
  eventLeafHash,
  inclusionProof,
  type NodeReader,
  treeRoot,
} from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createEnvironment, createProject } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface ActivityTreeFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-25T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeActivityTreeTests(fixture: () => ActivityTreeFixture): void {
  async function organization() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `mt-${orgId.slice(-8)}`, name: 'M', created_at: T0 });
    return orgId;
  }
  const draft = (n: number): ActivityDraft => ({
    id: fixture().id('evt'),
    type: 'push_applied',
    occurred_at: T0,
    organization: 'mt',
    actor: { type: 'user', id: 'alice' },
    data: { n, text: 'é\u2028"' },
  });

  /** Checks the stored tree against the events history returns, at every size and with proofs. */
  async function expectTreeOfLog(orgId: string) {
    const { store } = fixture();
    const events = await store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 500 });
    const read: NodeReader = (addresses) => store.activity.treeNodes(orgId, addresses);
    const head = await store.activity.treeHead(orgId);
    expect(head?.size).toBe(events.length);
    let tree = EMPTY_TREE;
    const roots = [treeRoot(tree)];
    for (const event of events) {
      tree = appendLeaves(tree, [eventLeafHash(event)]).tree;
      roots.push(treeRoot(tree));
    }
    expect(head?.rootHash).toEqual(roots[events.length]);
    for (let size = 0; size <= events.length; size++) {
      expect((await store.activity.treeHead(orgId, size))?.rootHash).toEqual(roots[size]);
    }
    const n = events.length;
    for (const [i, event] of events.entries()) {
      const hashes = await inclusionProof(i, n, read);
      const leafHash = eventLeafHash(event);
      expect(verifyInclusion({ leafHash, leafIndex: i, treeSize: n, hashes, rootHash: roots[n]! })).toBe(
        true,
      );
      const from = i + 1;
      const proof = await consistencyProof(from, n, read);
      const input = { from, to: n, hashes: proof, fromRoot: roots[from]!, toRoot: roots[n]! };
      expect(verifyConsistency(input)).toBe(true);
    }
    expect(await store.activity.treeHead(orgId, n + 1)).toBeNull();
  }

  it('merkle tree: appends and pushes grow it in step; every size, inclusion and consistency proof checks', async () => {
    const { store, id } = fixture();
    const orgId = await organization();
    expect(await store.activity.treeHead(orgId)).toEqual({ size: 0, rootHash: treeRoot(EMPTY_TREE) });
    const projectId = await createProject(store, id, orgId, T0);
    const envId = await createEnvironment(store, id, orgId, projectId, T0);
    for (let n = 0; n < 13; n++) {
      if (n % 3 === 0) {
        const changes = [{ key: `K${n}`, value: `v${n}` }];
        const eventTemplate = pushTemplate(id('evt'), 'mt', T0);
        const push = {
          organizationId: orgId,
          environmentId: envId,
          changes,
          force: false,
          now: T0,
          eventTemplate,
        };
        expect((await store.secrets.applyPush(push)).ok).toBe(true);
      } else if (n % 3 === 1) {
        await store.transaction((tx) => tx.activity.append(orgId, draft(n)));
      } else {
        await store.activity.append(orgId, draft(n));
      }
    }
    await expectTreeOfLog(orgId);
  });

  it('merkle tree: concurrent appends leave one tree; a rolled-back append leaves it as it was', async () => {
    const { store } = fixture();
    const orgId = await organization();
    await Promise.all(Array.from({ length: 12 }, (_, n) => store.activity.append(orgId, draft(n))));
    const before = await store.activity.treeHead(orgId);
    await expect(
      store.transaction(async (tx) => {
        await tx.activity.append(orgId, draft(99));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.activity.treeHead(orgId)).toEqual(before);
    await store.activity.append(orgId, draft(100));
    await expectTreeOfLog(orgId);
  });

  it('merkle tree: logs of random lengths, appended singly, in transactions and concurrently, all check', async () => {
    const { store } = fixture();
    // A fixed-seed generator: the lengths and mixes vary by case but are the same on every run and store.
    let seed = 0x2545f491;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let run = 0; run < 3; run++) {
      const orgId = await organization();
      let n = 0;
      const length = 1 + next(40);
      while (n < length) {
        const batch = Math.min(length - n, 1 + next(5));
        const drafts = Array.from({ length: batch }, (_, i) => draft(n + i));
        const mode = next(3);
        if (mode === 0) for (const d of drafts) await store.activity.append(orgId, d);
        else if (mode === 1)
          await store.transaction(async (tx) => {
            for (const d of drafts) await tx.activity.append(orgId, d);
          });
        else await Promise.all(drafts.map((d) => store.activity.append(orgId, d)));
        n += batch;
      }
      await expectTreeOfLog(orgId);
    }
  });

  it('merkle tree: a restore rebuilds it from the restored events, in batches', async () => {
    const { store } = fixture();
    const source = await organization();
    for (let n = 0; n < 9; n++) await store.activity.append(source, draft(n));
    const events = await store.activity.list({ organizationId: source, oldestFirst: true, limit: 500 });
    const target = await organization();
    for (let n = 0; n < 4; n++) await store.activity.append(target, draft(n));
    await store.transaction(async (tx) => {
      await tx.restores.clearOrganization(target);
      await tx.restores.insertEvents(target, events.slice(0, 5));
      await tx.restores.insertEvents(target, events.slice(5));
    });
    expect(await store.activity.treeHead(target)).toEqual(await store.activity.treeHead(source));
    await expectTreeOfLog(target);
    await store.activity.append(target, draft(10));
    await expectTreeOfLog(target);
  });
}
