/**
 * The store conformance suite: the contracts of the repository interfaces, run against every store
 * (memory here; PGlite and PostgreSQL in their own packages).
 */
import { type LatchkeyStore, verifyChain } from '@latchkey/core';
import type { ActivityDraft } from '@latchkey/core/store';
import { afterAll, beforeAll, expect } from 'vitest';
import { describeKeyed, it, type SkipList } from '../keyed/keyed.js';
import { describeActivityTreeTests } from './activity-tree.js';
import { describeClaimStoreTests } from './claims.js';
import { describeKeyIdTests } from './key-ids.js';
import { describeMemberTests } from './members.js';
import { describeMetricsStoreTests } from './metrics.js';
import { createEnvironment, createProject } from './org-environment.js';
import { describePushNonceTests } from './push-nonces.js';
import { pushTemplate } from './push-template.js';
import { describeRecordManyTests } from './record-many.js';
import { describeReplayStoreTests } from './replays.js';
import { describeRequestStoreTests } from './requests.js';
import { describeRestoreStoreTests } from './restores.js';
import { describeSealedValueTests } from './sealed-values.js';
import { describeSecretVersionTests } from './secret-versions.js';
import { describeSequencingTests } from './sequencing.js';
import { describeSigningKeyStoreTests } from './signing-keys.js';
import { describeSnapshotTests } from './snapshots.js';
import { describeTransactionTests } from './transactions.js';
import { describeWebhookCredentialStoreTests } from './webhook-credentials.js';
import { describeWebhookFilterStoreTests } from './webhook-filters.js';
import { describeWebhookStoreTests } from './webhooks.js';
import { describeWitnessStoreTests } from './witnesses.js';
import { describeWorkloadStoreTests } from './workloads.js';

let counter = 0;
const id = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(24, '0')}`;
const at = '2026-11-22T00:00:00.000Z';

const draft = (
  organization: string,
  type = 'push_applied',
  data: Record<string, unknown> = {},
): ActivityDraft => ({
  id: id('evt'),
  type,
  occurred_at: at,
  organization,
  actor: { type: 'user', id: 'admin' },
  data,
});

/** Options of {@link describeStoreConformance}. */
export interface StoreConformanceOptions {
  /** Names the backend in the report. */
  name: string;
  /** Returns an empty (or isolated) store; the suite closes it at the end. */
  create: () => Promise<LatchkeyStore>;
  /** Tests this backend skips, by name, each with the reason. */
  skip?: SkipList;
}

/** The store and the organization and environment made for the suite, once `beforeAll` has run. */
interface StoreWorld {
  store: LatchkeyStore;
  orgId: string;
  envId: string;
}

/** Registers the suite for one store. */
export function describeStoreConformance({ name, create, skip = {} }: StoreConformanceOptions): void {
  describeKeyed(`store conformance: ${name}`, skip, () => {
    let store: LatchkeyStore;
    let orgId: string;
    let envId: string;

    beforeAll(async () => {
      store = await create();
      orgId = id('org');
      await store.organizations.create({ id: orgId, slug: `org-${counter}`, name: 'Org', created_at: at });
      const projectId = await createProject(store, id, orgId, at, 'web');
      envId = await createEnvironment(store, id, orgId, projectId, at);
    });

    afterAll(async () => {
      await store?.close?.();
    });

    pushStoreTests(() => ({ store, orgId, envId }));

    chainStoreTests(() => ({ store, orgId, envId }));

    describeRequestStoreTests(() => ({ store, orgId, id, at }));
    describeTransactionTests(() => ({ store, orgId, envId, id, draft }));
    describeMemberTests(() => ({ store, id }));
    describeWebhookStoreTests(() => ({ store, id }));
    describeWebhookFilterStoreTests(() => ({ store, id }));
    describeReplayStoreTests(() => ({ store, id }));
    describeWebhookCredentialStoreTests(() => ({ store, id }));
    describeSealedValueTests(() => ({ store, id }));
    describeSecretVersionTests(() => ({ store, id }));
    describeRestoreStoreTests(() => ({ store, id }));
    describeSnapshotTests(() => ({ store, id }));
    describeMetricsStoreTests(() => ({ store, id }));
    describeKeyIdTests(() => ({ store, id }));
    describeSigningKeyStoreTests(() => ({ store, id }));
    describeClaimStoreTests(() => ({ store, id }));
    describeRecordManyTests(() => ({ store, id }));
    describeWitnessStoreTests(() => ({ store, id }));
    describeWorkloadStoreTests(() => ({ store, id }));
    describeActivityTreeTests(() => ({ store, id }));
    describeSequencingTests(() => ({ store, id }));
    describePushNonceTests(() => ({ store, id }));
  });
}

/** Unique slugs, atomic and serialised pushes. */
function pushStoreTests(world: () => StoreWorld): void {
  it('keeps slugs unique per parent', async () => {
    const { store, orgId } = world();
    const org = (await store.organizations.getById(orgId))!;
    expect(await store.organizations.create({ ...org, id: id('org') })).toBe('exists');
    const project = (await store.projects.get(orgId, 'web'))!;
    expect(await store.projects.create({ ...project, id: id('prj') })).toBe('exists');
    expect(
      await store.members.create({
        organization_id: orgId,
        user: 'a',
        role: 'viewer',
        grants: [],
        created_at: at,
      }),
    ).toBe('created');
    expect(
      await store.members.create({
        organization_id: orgId,
        user: 'a',
        role: 'admin',
        grants: [],
        created_at: at,
      }),
    ).toBe('exists');
    expect((await store.members.get(orgId, 'a'))!.role).toBe('viewer');
  });

  it('applies a push atomically and versions keys from 1', async () => {
    const { store, orgId, envId } = world();
    const result = await store.secrets.applyPush({
      organizationId: orgId,
      environmentId: envId,
      changes: [
        { key: 'A', value: '1', if_version: 0 },
        { key: 'B', value: '1' },
      ],
      force: false,
      now: at,
      eventTemplate: pushTemplate(id('evt'), 'x', at),
    });
    expect(result).toMatchObject({
      ok: true,
      versions: [
        { key: 'A', version: 1 },
        { key: 'B', version: 1 },
      ],
    });
    const conflict = await store.secrets.applyPush({
      organizationId: orgId,
      environmentId: envId,
      changes: [
        { key: 'B', value: '2', if_version: 1 },
        { key: 'A', value: '2', if_version: 0 },
      ],
      force: false,
      now: at,
      eventTemplate: pushTemplate(id('evt'), 'x', at),
    });
    expect(conflict).toEqual({
      ok: false,
      conflicts: [{ key: 'A', server_version: 1, client_if_version: 0 }],
    });
    expect((await store.secrets.listLive(envId)).map((s) => [s.key, s.value, s.version])).toEqual([
      ['A', '1', 1],
      ['B', '1', 1],
    ]);
  });

  it('serialises concurrent pushes: exactly one of 50 with the same if_version wins', async () => {
    const { store, orgId, envId } = world();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.secrets.applyPush({
          organizationId: orgId,
          environmentId: envId,
          changes: [{ key: 'RACE', value: String(i), if_version: 0 }],
          force: false,
          now: at,
          eventTemplate: pushTemplate(id('evt'), 'x', at),
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await store.secrets.listLive(envId)).find((s) => s.key === 'RACE')!.version).toBe(1);
  });
}

/** Tombstones, nonces, and one unbroken chain under concurrent appends. */
function chainStoreTests(world: () => StoreWorld): void {
  it('hides tombstones from listLive', async () => {
    const { store, orgId, envId } = world();
    await store.secrets.applyPush({
      organizationId: orgId,
      environmentId: envId,
      changes: [{ key: 'B', value: null, if_version: 1 }],
      force: false,
      now: at,
      eventTemplate: pushTemplate(id('evt'), 'x', at),
    });
    expect((await store.secrets.listLive(envId)).map((s) => s.key)).not.toContain('B');
  });

  it('consumes a nonce once, atomically', async () => {
    const { store, orgId } = world();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.nonces.consume(`${orgId}/dev`, 'nonce-1', Date.now() + 60_000, Date.now()),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(
      await store.nonces.consume(`${orgId}/other-device`, 'nonce-1', Date.now() + 60_000, Date.now()),
    ).toBe(true);
  });

  it('keeps one unbroken chain under concurrent appends', async () => {
    const { store, orgId } = world();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.activity.append(orgId, draft('org', 'test_event', { i }))),
    );
    const events = await store.activity.list({ organizationId: orgId, limit: 1000 });
    expect(events.map((e) => e.seq)).toEqual(
      Array.from({ length: events.length }, (_, i) => events.length - i),
    );
    expect(verifyChain([...events].reverse())).toBe(-1);
    // The same events as stored JSON text, oldest first, paged by seq.
    const asJson = await store.activity.listJson({
      organizationId: orgId,
      oldestFirst: true,
      afterSeq: 3,
      limit: 10,
    });
    const ascending = [...events]
      .reverse()
      .filter((e) => e.seq > 3)
      .slice(0, 10);
    expect(asJson.map((r) => r.seq)).toEqual(ascending.map((e) => e.seq));
    expect(asJson.map((r) => JSON.parse(r.json))).toEqual(ascending);
    const filtered = await store.activity.list({ organizationId: orgId, types: ['test_event'], limit: 5 });
    expect(filtered).toHaveLength(5);
    const older = await store.activity.list({
      organizationId: orgId,
      types: ['test_event'],
      limit: 100,
      beforeSeq: filtered[4]!.seq,
    });
    expect(older).toHaveLength(25);
  });
}
