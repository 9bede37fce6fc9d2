/**
 * The sequencing part of the store conformance suite. A store may seal a push's event inline or
 * leave it pending (`applyPush` answers `pending: true`) for `sealPending`, which core calls through
 * `sealCommitted`. Either way: a pending event is invisible to every reader (history, the chain
 * head, the tree); a seal puts every pending event on the chain in the order the pushes committed;
 * any other append seals them first; and concurrent pushes, each waiting for its seal, leave one
 * chain and one tree that verify, with every event once.
 */
import { type ActivityEvent, type LatchkeyStore, verifyChain } from '@latchkey/core';
import {
  type ActivityDraft,
  appendLeaves,
  EMPTY_TREE,
  eventLeafHash,
  sealCommitted,
  treeRoot,
} from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createOrgEnvironment } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface SequencingFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-27T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeSequencingTests(fixture: () => SequencingFixture): void {
  async function environment() {
    const { store, id } = fixture();
    const { orgId, envId } = await createOrgEnvironment(store, id, 'sq', T0);
    return { orgId, envId };
  }
  // Every event, appended or pushed, is told apart by the number its id was drawn for.
  const numbered = new Map<string, number>();
  const eventId = (n: number) => {
    const id = fixture().id('evt');
    numbered.set(id, n);
    return id;
  };
  const nOf = (event: ActivityEvent) => numbered.get(event.id);
  const draft = (n: number): ActivityDraft => ({
    id: eventId(n),
    type: 'push_applied',
    occurred_at: T0,
    organization: 'sq',
    actor: { type: 'user', id: 'alice' },
    data: { n },
  });
  const push = (orgId: string, envId: string, n: number) =>
    fixture().store.secrets.applyPush({
      organizationId: orgId,
      environmentId: envId,
      changes: [{ key: `K${n % 5}`, value: `v${n}` }],
      force: false,
      now: T0,
      eventTemplate: pushTemplate(eventId(n), 'sq', T0),
    });
  const history = (orgId: string) =>
    fixture().store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 1000 });

  /** The chain verifies and the stored tree's root is the RFC 6962 root of the events history returns. */
  async function expectOneLog(orgId: string, count: number) {
    const events = await history(orgId);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(verifyChain(events)).toBe(-1);
    const tree = appendLeaves(EMPTY_TREE, events.map(eventLeafHash)).tree;
    expect(await fixture().store.activity.treeHead(orgId)).toEqual({ size: count, rootHash: treeRoot(tree) });
    return events;
  }

  it('sequencing: a pending event is invisible to readers; a seal puts them on the chain in commit order', async () => {
    const { store } = fixture();
    const { orgId, envId } = await environment();
    const results = [];
    for (let n = 0; n < 3; n++) results.push(await push(orgId, envId, n));
    const pending = results.every((r) => r.ok && r.pending === true);
    expect(pending || results.every((r) => r.ok && !r.pending)).toBe(true);
    if (pending) {
      expect(await history(orgId)).toEqual([]);
      expect((await store.activity.treeHead(orgId))?.size).toBe(0);
    }
    await sealCommitted(store, store.activity, orgId);
    const events = await expectOneLog(orgId, 3);
    expect(events.map(nOf)).toEqual([0, 1, 2]);
    // A seal with nothing pending changes nothing.
    expect((await store.activity.sealPending?.(orgId)) ?? 0).toBe(0);
    await expectOneLog(orgId, 3);
  });

  it('sequencing: an append seals the pending events first, in a transaction too', async () => {
    const { store } = fixture();
    const { orgId, envId } = await environment();
    await push(orgId, envId, 0);
    await push(orgId, envId, 1);
    await store.activity.append(orgId, draft(2));
    await push(orgId, envId, 3);
    await store.transaction((tx) => tx.activity.append(orgId, draft(4)));
    const events = await expectOneLog(orgId, 5);
    expect(events.map(nOf)).toEqual([0, 1, 2, 3, 4]);
  });

  it('sequencing: concurrent pushes, each waiting for its seal, leave one chain and one tree', async () => {
    const { store } = fixture();
    const { orgId, envId } = await environment();
    const sealedAfter = await Promise.all(
      Array.from({ length: 24 }, async (_, n) => {
        const result = await push(orgId, envId, n);
        expect(result.ok).toBe(true);
        await sealCommitted(store, store.activity, orgId);
        // Once its seal ended, the push's event is in history.
        const ids = (await history(orgId)).map((e) => e.id);
        return result.ok && ids.includes(result.event.id);
      }),
    );
    expect(sealedAfter).toEqual(Array(24).fill(true));
    const events = await expectOneLog(orgId, 24);
    expect(new Set(events.map(nOf)).size).toBe(24);
  });
}
