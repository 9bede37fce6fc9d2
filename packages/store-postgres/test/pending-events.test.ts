/**
 * Events a push left pending when its process died between its commit and its seal: invisible to
 * readers, then sealed when a store opens on the data, or by the open store's periodic sweep, with
 * the deliveries the outbox rule owes them and the request's traceparent; on PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import type { PushEventTemplate } from '@latchkey/core/store';
import { describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore, type SqlDriver } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { pgliteDriver } from '../src/pglite.js';
import { DATABASE_URL, dropSchema, freshSchema, postgresUnavailable } from './databases.js';
import { pendingOrganization } from './pending-organization.js';

const T0 = '2026-11-27T00:00:00.000Z';

const template = (): PushEventTemplate => ({
  id: `evt_${randomUUID()}`,
  occurred_at: T0,
  organization: 'pe',
  project: 'p',
  environment: 'prod',
  actor: { type: 'user', id: 'alice' },
  device_id: 'dev_1',
  mode: { strict: false, force: false },
});

/** The push an event records, by the one key it wrote (`K<n>`). */
const keyOf = (event: ActivityEvent) => (event.data['versions'] as { key: string }[])[0]!.key;

/** Pushes as a process that dies right after its commit would: the event is left pending. */
async function pushWithoutSeal(store: PostgresStore, orgId: string, envId: string, n: number) {
  const result = await store.secrets.applyPush({
    organizationId: orgId,
    environmentId: envId,
    changes: [{ key: `K${n}`, value: `v${n}` }],
    force: false,
    now: T0,
    eventTemplate: template(),
  });
  expect(result.ok && result.pending).toBe(true);
}

const history = (store: PostgresStore, orgId: string) =>
  store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 100 });

function describePendingEvents(
  name: string,
  open: (options: { sealSweepMs: number }) => Promise<PostgresStore>,
) {
  describe(`pending events left by a crash (${name})`, () => {
    it('are invisible to readers, then sealed in order when a store opens on the data', async () => {
      const first = await open({ sealSweepMs: 0 });
      const { orgId, envId } = await pendingOrganization(first);
      for (let n = 0; n < 3; n++) await pushWithoutSeal(first, orgId, envId, n);
      expect(await history(first, orgId)).toEqual([]);
      expect((await first.activity.treeHead(orgId))?.size).toBe(0);
      // The next process to open the store seals what the dead one left.
      const second = await open({ sealSweepMs: 0 });
      const events = await history(second, orgId);
      expect(events.map(keyOf)).toEqual(['K0', 'K1', 'K2']);
      expect(verifyChain(events)).toBe(-1);
      expect((await second.activity.treeHead(orgId))?.size).toBe(3);
      // The seal queued each event's delivery, by the outbox rule.
      expect(await second.deliveries.count(orgId, `${orgId}_w`, 'pending')).toBe(3);
      await second.close();
      await first.close();
    });

    it('are sealed by the periodic sweep of an open store', async () => {
      const store = await open({ sealSweepMs: 20 });
      const { orgId, envId } = await pendingOrganization(store);
      await pushWithoutSeal(store, orgId, envId, 7);
      const deadline = Date.now() + 10_000;
      while ((await history(store, orgId)).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await history(store, orgId)).map(keyOf)).toEqual(['K7']);
      await store.close();
    });
  });
}

/** One PGlite database opened by several stores, as processes on one data directory would in turn. */
describePendingEvents(
  'PGlite',
  (() => {
    let driver: SqlDriver | undefined;
    return async (options) => {
      driver ??= await pgliteDriver();
      const store = await createPostgresStore({ driver, ...options });
      return { ...store, close: async () => {} };
    };
  })(),
);

if (postgresUnavailable === null) {
  const schema = freshSchema();
  describePendingEvents('PostgreSQL', async (options) => {
    const driver = await pgDriver({ connectionString: DATABASE_URL, max: 4 });
    const store = await createPostgresStore({ driver, schema, ...options });
    return {
      ...store,
      close: async () => {
        await store.close();
        await dropSchema(schema).catch(() => {});
      },
    };
  });
}
