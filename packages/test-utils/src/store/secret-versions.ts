/**
 * The history part of the store conformance suite: every push writes one version per key (a
 * tombstone too) with the push's event as its metadata, each key keeps the values of its last N
 * versions, a conflict or a rolled-back transaction writes no version, pages run newest first, and
 * the re-encrypt walk over kept values sees each once and loses to a change in between.
 */
import type { LatchkeyStore, StoredSecretVersion, StoredVersionValue } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createOrgEnvironment } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface SecretVersionFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-25T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeSecretVersionTests(fixture: () => SecretVersionFixture): void {
  const kit = secretVersionKit(fixture);
  keptVersionTests(kit);

  versionReadTests(kit);
}

type SecretVersionKit = ReturnType<typeof secretVersionKit>;

/** What the version tests share: an organization’s environment and a push into it. */
function secretVersionKit(fixture: () => SecretVersionFixture) {
  async function setUp() {
    const { store, id } = fixture();
    const { orgId, envId } = await createOrgEnvironment(store, id, 'vh', T0);
    const push = (
      changes: { key: string; value: string | null; if_version?: number }[],
      versionsKept?: number,
    ) =>
      store.secrets.applyPush({
        organizationId: orgId,
        environmentId: envId,
        changes,
        force: false,
        now: T0,
        eventTemplate: pushTemplate(id('evt'), 'vh', T0),
        ...(versionsKept === undefined ? {} : { versionsKept }),
      });
    return { store, orgId, envId, push };
  }
  return { fixture, setUp };
}

/** Every version kept with its metadata, the values of the last few, tombstones. */
function keptVersionTests(kit: SecretVersionKit): void {
  const { setUp } = kit;
  it('keeps every version of a key with its metadata and the values of the last 10', async () => {
    const { store, envId, push } = await setUp();
    const eventIds: string[] = [];
    for (let i = 1; i <= 15; i++) {
      const result = await push([{ key: 'K', value: `v${i}`, if_version: i - 1 }]);
      if (!result.ok) throw new Error('push conflicted');
      eventIds.push(result.event.id);
    }
    const versions = await store.secrets.listVersions(envId, 'K', { limit: 100 });
    expect(versions.map((v) => v.version)).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(versions.map((v) => v.value)).toEqual([
      ...[15, 14, 13, 12, 11, 10, 9, 8, 7, 6].map((i) => `v${i}`),
      ...[null, null, null, null, null],
    ]);
    expect(versions[0]).toEqual({
      key: 'K',
      version: 15,
      deleted: false,
      value: 'v15',
      occurred_at: T0,
      actor: { type: 'user', id: 'alice' },
      device_id: 'dev_1',
      event_id: eventIds[14],
    });
    expect(versions.map((v) => v.event_id)).toEqual([...eventIds].reverse());
    expect(await store.secrets.listVersions(envId, 'NEVER', { limit: 10 })).toEqual([]);
  });

  it('keeps the values of the last versionsKept versions of each key written', async () => {
    const { store, envId, push } = await setUp();
    for (let i = 1; i <= 4; i++) {
      await push(
        [
          { key: 'A', value: `a${i}` },
          { key: 'B', value: `b${i}` },
        ],
        2,
      );
    }
    await push([{ key: 'A', value: 'a5' }], 2);
    const values = async (key: string) =>
      (await store.secrets.listVersions(envId, key, { limit: 10 })).map((v) => v.value);
    expect(await values('A')).toEqual(['a5', 'a4', null, null, null]);
    expect(await values('B')).toEqual(['b4', 'b3', null, null]);
  });

  it('writes a tombstone as a version without a value', async () => {
    const { store, envId, push } = await setUp();
    await push([{ key: 'K', value: 'one' }]);
    await push([{ key: 'K', value: null }]);
    await push([{ key: 'K', value: 'three', if_version: 0 }]);
    const versions = await store.secrets.listVersions(envId, 'K', { limit: 10 });
    expect(versions.map((v) => [v.version, v.deleted, v.value])).toEqual([
      [3, false, 'three'],
      [2, true, null],
      [1, false, 'one'],
    ]);
  });
}

/** No version for a refused or rolled-back push; pages, lists and walks of versions. */
function versionReadTests(kit: SecretVersionKit): void {
  const { setUp } = kit;
  it('writes no version for a conflicting push, nor in a transaction that is rolled back', async () => {
    const { store, envId, push } = await setUp();
    await push([{ key: 'K', value: 'one' }]);
    const conflict = await push([
      { key: 'K', value: 'two', if_version: 5 },
      { key: 'NEW', value: 'x' },
    ]);
    expect(conflict.ok).toBe(false);
    await expect(
      store.transaction(async (tx) => {
        await tx.secrets.applyPush({
          organizationId: 'unused',
          environmentId: envId,
          changes: [{ key: 'K', value: 'rolled back' }],
          force: false,
          now: T0,
          eventTemplate: pushTemplate(`evt_rollback_${envId.slice(-8)}`, 'vh', T0),
        });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await store.secrets.listVersions(envId, 'K', { limit: 10 })).map((v) => v.value)).toEqual([
      'one',
    ]);
    expect(await store.secrets.listVersions(envId, 'NEW', { limit: 10 })).toEqual([]);
  });

  it('pages a key’s versions newest first below a version', async () => {
    const { store, envId, push } = await setUp();
    for (let i = 1; i <= 7; i++) await push([{ key: 'K', value: `v${i}` }]);
    const page = (beforeVersion: number | undefined) =>
      store.secrets
        .listVersions(envId, 'K', { beforeVersion, limit: 3 })
        .then((r) => r.map((v) => v.version));
    expect(await page(undefined)).toEqual([7, 6, 5]);
    expect(await page(5)).toEqual([4, 3, 2]);
    expect(await page(2)).toEqual([1]);
    expect(await page(1)).toEqual([]);
  });

  it('lists every version of an environment by key then version', async () => {
    const { store, envId, push } = await setUp();
    await push([
      { key: 'b', value: 'b1' },
      { key: 'A', value: 'A1' },
    ]);
    await push([{ key: 'A', value: null }]);
    const all = await store.secrets.listAllVersions(envId);
    expect(all.map((v) => [v.key, v.version, v.deleted, v.value])).toEqual([
      ['A', 1, false, 'A1'],
      ['A', 2, true, null],
      ['b', 1, false, 'b1'],
    ]);
  });

  it('pages the live keys and every version of an environment, in code-unit key order then version', async () => {
    const { store, envId, push } = await setUp();
    await push([
      { key: 'b', value: 'b1' },
      { key: 'A', value: 'A1' },
      { key: 'B', value: 'B1' },
      { key: 'gone', value: 'g1' },
    ]);
    await push([
      { key: 'A', value: 'A2' },
      { key: 'gone', value: null },
    ]);
    const walk = async <T>(read: (last: T | undefined) => Promise<T[]>, limit: number) => {
      const pages: T[][] = [];
      let last: T | undefined;
      for (;;) {
        const page = await read(last);
        expect(page.length).toBeLessThanOrEqual(limit);
        pages.push(page);
        if (page.length < limit) return pages;
        last = page[page.length - 1];
      }
    };
    const versions = await walk(
      (last: StoredSecretVersion | undefined) =>
        store.secrets.listAllVersions(envId, { after: last, limit: 2 }),
      2,
    );
    expect(versions.map((page) => page.map((v) => `${v.key}${v.version}`))).toEqual([
      ['A1', 'A2'],
      ['B1', 'b1'],
      ['gone1', 'gone2'],
      [],
    ]);
    expect(versions.flat()).toEqual(await store.secrets.listAllVersions(envId));
    const live = await walk(
      (last: { key: string } | undefined) => store.secrets.listLive(envId, { afterKey: last?.key, limit: 2 }),
      2,
    );
    expect(live.map((page) => page.map((s) => `${s.key}${s.version}`))).toEqual([['A2', 'B1'], ['b1']]);
    expect(live.flat()).toEqual(await store.secrets.listLive(envId));
  });

  it('pages the deleted keys of an environment in code-unit key order, live keys left out', async () => {
    const { store, envId, push } = await setUp();
    const keys = ['b', 'A', 'B', 'a', 'Z'];
    await push([...keys.map((key) => ({ key, value: `${key}1` })), { key: 'live', value: 'l1' }]);
    await push(keys.map((key) => ({ key, value: null })));
    const pages: string[][] = [];
    let last: { key: string } | undefined;
    for (;;) {
      const page = await store.secrets.listTombstones(envId, { afterKey: last?.key, limit: 2 });
      expect(page.length).toBeLessThanOrEqual(2);
      pages.push(page.map((t) => `${t.key}${t.version}`));
      if (page.length < 2) break;
      last = page[page.length - 1];
    }
    expect(pages).toEqual([['A2', 'B2'], ['Z2', 'a2'], ['b2']]);
    const whole = await store.secrets.listTombstones(envId);
    expect(whole.map((t) => t.key)).toEqual(['A', 'B', 'Z', 'a', 'b']);
    expect(whole.every((t) => typeof t.updated_at === 'string')).toBe(true);
  });

  it('walks kept version values once and replaces one only where it is still the one read', async () => {
    const { store, envId, push } = await setUp();
    for (let i = 1; i <= 3; i++) await push([{ key: 'K', value: `v${i}` }], 2);
    await push([{ key: 'L', value: null }]);
    const rows: StoredVersionValue[] = [];
    let after: StoredVersionValue | null = null;
    for (;;) {
      const page: StoredVersionValue[] = await store.secrets.scanVersionValues(after, 1);
      rows.push(...page.filter((row) => row.environmentId === envId));
      if (page.length < 1) break;
      after = page[0]!;
    }
    expect(rows.map((r) => `${r.key}@${r.version}=${r.value}`)).toEqual(['K@2=v2', 'K@3=v3']);
    const replaced = await store.secrets.replaceVersionValues([
      { environmentId: envId, key: 'K', version: 3, from: 'v3', to: 'sealed3' },
      { environmentId: envId, key: 'K', version: 2, from: 'stale', to: 'lost' },
      { environmentId: envId, key: 'K', version: 1, from: 'v1', to: 'lost' },
    ]);
    expect(replaced).toBe(1);
    expect((await store.secrets.listVersions(envId, 'K', { limit: 10 })).map((v) => v.value)).toEqual([
      'sealed3',
      'v2',
      null,
    ]);
    // The head is the head's to replace: the version's copy moved, the head's did not.
    expect((await store.secrets.listLive(envId)).map((s) => s.value)).toEqual(['v3']);
  });
}
