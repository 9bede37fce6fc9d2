/**
 * A process seals the events its own pushes committed after the chain head its last seal left, in
 * one statement and without reading the pending events first; when another process moved the head
 * in between, or sealed one of those events already, that statement writes nothing and the seal
 * reads instead. Two stores on one database stand for two processes; on PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import {
  appendLeaves,
  EMPTY_TREE,
  eventLeafHash,
  type PendingEvent,
  type PushEventTemplate,
  sealCommitted,
  treeRoot,
} from '@latchkey/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore, type SqlDriver, tablesOf } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { pgliteDriver } from '../src/pglite.js';
import { DATABASE_URL, dropSchema, freshSchema, postgresUnavailable } from './databases.js';
import { pendingOrganization } from './pending-organization.js';

const T0 = '2026-11-27T00:00:00.000Z';
const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** A driver that counts the reads of pending events (the seal's read statement) sent through it. */
function countingReads(inner: SqlDriver): { driver: SqlDriver; reads: () => number } {
  let reads = 0;
  const count = (text: string) => {
    if (text.includes('pending_drafts')) reads++;
  };
  return {
    reads: () => reads,
    driver: {
      ...inner,
      name: inner.name,
      query: (text, params) => {
        count(text);
        return inner.query(text, params);
      },
      transaction: (fn) => inner.transaction(fn),
      close: () => inner.close(),
      ...(inner.sealQuery
        ? {
            sealQuery: (text: string, params?: readonly unknown[]) => {
              count(text);
              return inner.sealQuery!(text, params);
            },
          }
        : {}),
    } as SqlDriver,
  };
}

function describeOwnSeals(name: string, open: () => Promise<{ driver: SqlDriver; schema: string }>) {
  describe(`own seals (${name})`, () => {
    let close: (() => Promise<void>) | null = null;
    afterEach(async () => {
      await close?.();
      close = null;
    });

    /** Two stores on one database, the first counting its reads of pending events; an organization. */
    async function twoProcesses() {
      const { driver, schema } = await open();
      close = () => driver.close();
      const counted = countingReads(driver);
      const a = await createPostgresStore({ driver: counted.driver, schema, sealSweepMs: 0 });
      const b = await createPostgresStore({ driver, schema, sealSweepMs: 0, migrate: false });
      const { orgId, envId } = await pendingOrganization(a);
      return { a, b, orgId, envId, readsOfA: counted.reads, driver, chains: tablesOf(schema).chains };
    }

    // Each push's event is told apart by the number its id was drawn for.
    const numbered = new Map<string, number>();
    const template = (n: number): PushEventTemplate => {
      const eventId = id('evt');
      numbered.set(eventId, n);
      return {
        id: eventId,
        occurred_at: T0,
        organization: 'own',
        project: 'p',
        environment: 'prod',
        actor: { type: 'user', id: 'alice' },
        device_id: 'dev_1',
        mode: { strict: false, force: false },
      };
    };
    const nOf = (event: ActivityEvent) => numbered.get(event.id);

    /** A signed push's write: with a nonce, so the store numbers its pending event. */
    async function push(
      store: PostgresStore,
      orgId: string,
      envId: string,
      n: number,
    ): Promise<PendingEvent> {
      const result = await store.secrets.applyPush({
        organizationId: orgId,
        environmentId: envId,
        changes: [{ key: `K${n % 3}`, value: `v${n}` }],
        force: false,
        now: T0,
        eventTemplate: template(n),
        nonce: { scope: `${orgId}/dev`, value: id('nonce'), expiresAt: Date.now() + 60_000, now: Date.now() },
      });
      if (!(result.ok && result.pending && result.stored))
        throw new Error('expected a numbered pending event');
      return result.stored;
    }

    async function expectOneLog(store: PostgresStore, orgId: string, ns: number[]) {
      const events = await store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 1000 });
      expect(events.map((e) => e.seq)).toEqual(ns.map((_, i) => i + 1));
      expect(verifyChain(events)).toBe(-1);
      expect(events.map(nOf)).toEqual(ns);
      const tree = appendLeaves(EMPTY_TREE, events.map(eventLeafHash)).tree;
      expect(await store.activity.treeHead(orgId)).toEqual({ size: ns.length, rootHash: treeRoot(tree) });
    }

    it('after its first seal, seals its own events without reading the pending ones', async () => {
      const { a, orgId, envId, readsOfA } = await twoProcesses();
      expect(await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 0)])).toBe(1);
      const before = readsOfA();
      for (let n = 1; n < 4; n++)
        expect(await a.activity.sealPending!(orgId, [await push(a, orgId, envId, n)])).toBe(1);
      // Two at once, in the order given.
      const [four, five] = [await push(a, orgId, envId, 4), await push(a, orgId, envId, 5)];
      expect(await a.activity.sealPending!(orgId, [five, four])).toBe(2);
      expect(readsOfA() - before).toBe(0);
      await expectOneLog(a, orgId, [0, 1, 2, 3, 5, 4]);
    });

    it('reads instead when another process moved the head since its last seal', async () => {
      const { a, b, orgId, envId, readsOfA } = await twoProcesses();
      await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 0)]);
      // B's push and seal move the head A remembers; B's pending event of a push it has not sealed
      // yet is found by A's read and sealed with A's own.
      await b.activity.sealPending!(orgId, [await push(b, orgId, envId, 1)]);
      await push(b, orgId, envId, 2);
      const mine = await push(a, orgId, envId, 3);
      const before = readsOfA();
      expect(await a.activity.sealPending!(orgId, [mine])).toBe(2);
      expect(readsOfA() - before).toBe(1);
      await expectOneLog(a, orgId, [0, 1, 2, 3]);
      // And from the head that read found, A's next own event goes without reading again.
      expect(await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 4)])).toBe(1);
      expect(readsOfA() - before).toBe(1);
      await expectOneLog(a, orgId, [0, 1, 2, 3, 4]);
    });

    it('never seals an event twice: one sealed already, by another process or by its own read, is left', async () => {
      const { a, b, orgId, envId } = await twoProcesses();
      await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 0)]);
      // Sealed by B's read before A's own seal of it: the head moved.
      const one = await push(a, orgId, envId, 1);
      expect(await b.activity.sealPending!(orgId)).toBe(1);
      expect(await a.activity.sealPending!(orgId, [one])).toBe(0);
      // Sealed by A's own read (a seal without events of its own): the head A remembers is the one
      // after it, so only the check that the event is still pending stops a second copy.
      const two = await push(a, orgId, envId, 2);
      expect(await a.activity.sealPending!(orgId)).toBe(1);
      expect(await a.activity.sealPending!(orgId, [two])).toBe(0);
      await expectOneLog(a, orgId, [0, 1, 2]);
    });

    it('reads instead when the head was replaced at the same length (a restore)', async () => {
      const { a, orgId, envId, readsOfA, driver, chains } = await twoProcesses();
      await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 0)]);
      // Another history of one event took its place: same seq and tree size, another hash.
      const other = 'f'.repeat(64);
      await driver.query(`UPDATE ${chains} SET hash = $2 WHERE organization_id = $1`, [orgId, other]);
      const before = readsOfA();
      expect(await a.activity.sealPending!(orgId, [await push(a, orgId, envId, 1)])).toBe(1);
      expect(readsOfA() - before).toBe(1);
      const [second] = await a.activity.list({ organizationId: orgId, limit: 1 });
      expect(second).toMatchObject({ seq: 2, prev_hash: other });
    });

    it('two processes pushing at once, each waiting for its seal, leave one chain with every event once', async () => {
      const { a, b, orgId, envId } = await twoProcesses();
      const pushes = Array.from({ length: 30 }, async (_, n) => {
        const store = n % 2 === 0 ? a : b;
        const stored = await push(store, orgId, envId, n);
        await sealCommitted(store, store.activity, orgId, stored);
        // Once its seal ended, the push's event is in history.
        const events = await store.activity.list({ organizationId: orgId, limit: 1000 });
        return events.some((e) => nOf(e) === n);
      });
      expect(await Promise.all(pushes)).toEqual(Array(30).fill(true));
      const events = await a.activity.list({ organizationId: orgId, oldestFirst: true, limit: 1000 });
      expect(new Set(events.map(nOf)).size).toBe(30);
      await expectOneLog(
        a,
        orgId,
        events.map((e) => nOf(e)!),
      );
    });
  });
}

describeOwnSeals('PGlite', async () => ({ driver: await pgliteDriver(), schema: 'latchkey' }));

if (postgresUnavailable === null) {
  describeOwnSeals('PostgreSQL', async () => {
    const schema = freshSchema();
    const driver = await pgDriver({ connectionString: DATABASE_URL, max: 4 });
    return {
      schema,
      driver: {
        ...driver,
        name: driver.name,
        close: async () => {
          await driver.close();
          await dropSchema(schema).catch(() => {});
        },
      } as SqlDriver,
    };
  });
}
