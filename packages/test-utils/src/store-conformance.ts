/**
 * The store conformance suite: the contracts of the repository interfaces, run against every store
 * (memory here; PGlite and PostgreSQL in their own packages).
 */
import { type ActivityDraft, type LatchkeyStore, verifyChain } from '@latchkey/core';
import { afterAll, beforeAll, expect } from 'vitest';
import { describeKeyed, it, type SkipList } from './keyed.js';
import { describeActivityTreeTests } from './store-activity-tree.js';
import { describeClaimStoreTests } from './store-claims.js';
import { describeKeyIdTests } from './store-key-ids.js';
import { describeMemberTests } from './store-members.js';
import { describeMetricsStoreTests } from './store-metrics.js';
import { createEnvironment, createProject } from './store-org-environment.js';
import { describePushNonceTests } from './store-push-nonces.js';
import { pushTemplate } from './store-push-template.js';
import { describeRecordManyTests } from './store-record-many.js';
import { describeReplayStoreTests } from './store-replays.js';
import { describeRequestStoreTests } from './store-requests.js';
import { describeRestoreStoreTests } from './store-restores.js';
import { describeSealedValueTests } from './store-sealed-values.js';
import { describeSecretVersionTests } from './store-secret-versions.js';
import { describeSequencingTests } from './store-sequencing.js';
import { describeSigningKeyStoreTests } from './store-signing-keys.js';
import { describeTransactionTests } from './store-transactions.js';
import { describeWebhookCredentialStoreTests } from './store-webhook-credentials.js';
import { describeWebhookFilterStoreTests } from './store-webhook-filters.js';
import { describeWebhookStoreTests } from './store-webhooks.js';
import { describeWitnessStoreTests } from './store-witnesses.js';

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

    it('keeps slugs unique per parent', async () => {
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

    it('hides tombstones from listLive', async () => {
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
    describeMetricsStoreTests(() => ({ store, id }));
    describeKeyIdTests(() => ({ store, id }));
    describeSigningKeyStoreTests(() => ({ store, id }));
    describeClaimStoreTests(() => ({ store, id }));
    describeRecordManyTests(() => ({ store, id }));
    describeWitnessStoreTests(() => ({ store, id }));
    describeActivityTreeTests(() => ({ store, id }));
    describeSequencingTests(() => ({ store, id }));
    describePushNonceTests(() => ({ store, id }));
  });
}
