/**
 * The snapshot part of the store conformance suite: every read a backup makes through a store's
 * `snapshot` view sees the store as it stood at its first read, whatever is pushed meanwhile
 * (keys, versions, the chain), and the store goes on serving writes while the snapshot is held.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createOrgEnvironment } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface SnapshotFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-12-02T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeSnapshotTests(fixture: () => SnapshotFixture): void {
  it('reads a snapshot: keys, versions and the chain as at its first read, while pushes land', async () => {
    const { store, id } = fixture();
    if (!store.snapshot) return;
    const { orgId, envId } = await createOrgEnvironment(store, id, 'snap', T0);
    const push = (changes: { key: string; value: string | null }[]) =>
      store.secrets.applyPush({
        organizationId: orgId,
        environmentId: envId,
        changes,
        force: false,
        now: T0,
        eventTemplate: pushTemplate(id('evt'), 'snap', T0),
      });
    await push([
      { key: 'A', value: 'a1' },
      { key: 'B', value: 'b1' },
    ]);
    const eventsBefore = (await store.activity.list({ organizationId: orgId, limit: 10 })).length;
    let pushed: Promise<unknown> = Promise.resolve();
    const seen: string[] = [];
    for await (const line of store.snapshot(orgId, async function* (view) {
      const live = await view.secrets.listLive(envId);
      yield `live ${live.map((s) => `${s.key}${s.version}`).join(',')}`;
      // Meanwhile, outside: A changes, B is deleted, C is new. A serial engine that reads the
      // snapshot whole in one transaction (PGlite) holds the push until it ends: wait a little only.
      pushed = push([
        { key: 'A', value: 'a2' },
        { key: 'B', value: null },
        { key: 'C', value: 'c1' },
      ]);
      await Promise.race([pushed, sleep(300)]);
      const tombstones = await view.secrets.listTombstones(envId);
      yield `deleted ${tombstones.map((t) => t.key).join(',')}`;
      const versions = await view.secrets.listAllVersions(envId);
      yield `versions ${versions.map((v) => `${v.key}${v.version}`).join(',')}`;
      const events = await view.activity.list({ organizationId: orgId, limit: 10 });
      yield `events ${events.length}`;
    })) {
      seen.push(line);
    }
    await pushed;
    expect(seen).toEqual(['live A1,B1', 'deleted ', 'versions A1,B1', `events ${eventsBefore}`]);
    // The push went through, and the store shows it.
    const live = await store.secrets.listLive(envId);
    expect(live.map((s) => `${s.key}${s.version}`)).toEqual(['A2', 'C1']);
  });
}
