/**
 * Four app instances (Node processes) on one real PostgreSQL send 100 conflicting pushes each to the
 * same keys: exactly one winner per version, no lost update, every applied push's event exactly
 * once, and the organization's chain verifies.
 */
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import { verifyActivityExport } from '@latchkey/core/client';
import { appendLeaves, EMPTY_TREE, eventLeafHash, treeRoot } from '@latchkey/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { pulledValues, setUpAcme } from './acme.js';
import { freshSchema, postgresStore, postgresUnavailable } from './databases.js';
import { runScript } from './processes/spawn.js';

const PROCESSES = 4;
const PUSHES = 100;
const KEYS = ['DATABASE_URL', 'API_KEY', 'SESSION_SECRET'];

interface Applied {
  value: string;
  versions: { key: string; version: number }[];
  event_id: string;
}

/** Where the pushing processes reach PostgreSQL: directly, or through a transaction-mode pooler. */
export interface PushersRoute {
  url: string;
  pooler?: 'transaction';
}

/**
 * Registers the four-process test; the processes (and the store that checks) reach PostgreSQL at
 * `route()`, read when the test runs.
 */
export function describeConcurrentPushes(title: string, route: () => PushersRoute): void {
  // Skipped only off CI when no PostgreSQL answers (databases.ts prints why; in CI that is a failure).
  describe.skipIf(postgresUnavailable !== null)(title, () => {
    const stores: { close(): Promise<void> }[] = [];
    afterAll(async () => {
      for (const store of stores) await store.close();
    });

    it('lets exactly one push win each version, loses no update and records each once in one chain', async () => {
      const schema = freshSchema();
      const { url, pooler } = route();
      const store = await postgresStore({ schema, url, ...(pooler ? { pooler } : {}) });
      stores.push(store);
      const acme = await setUpAcme(store);
      const startAt = String(Date.now() + 2_000);
      const outputs = await Promise.all(
        Array.from({ length: PROCESSES }, (_, worker) =>
          runScript('pusher', {
            ...acme.deviceEnv,
            DATABASE_URL: url,
            ...(pooler ? { POOLER: pooler } : {}),
            SCHEMA: schema,
            KEYS: KEYS.join(','),
            WORKER: String(worker),
            COUNT: String(PUSHES),
            START_AT: startAt,
          }),
        ),
      );
      const lines = outputs.flatMap((output) =>
        output
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      );
      const applied = lines.filter((line): line is Applied => 'value' in line);
      const summaries = lines.filter((line) => 'summary' in line).map((line) => line.summary);
      const conflicts = summaries.reduce((sum, s) => sum + s.conflicts, 0);
      expect(summaries).toHaveLength(PROCESSES);
      expect(summaries.flatMap((s) => s.other)).toEqual([]);
      expect(applied.length + conflicts).toBe(PROCESSES * PUSHES);

      // Exactly one winner per version: the applied pushes hold versions 1..n of every key, once each.
      const n = applied.length;
      for (const key of KEYS) {
        const versions = applied
          .map((a) => a.versions.find((v) => v.key === key)!.version)
          .sort((x, y) => x - y);
        expect(versions).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      }
      // No lost update: every key holds the value of the push that won the last version.
      const last = applied.find((a) => a.versions[0]!.version === n)!;
      const live = await store.secrets.listLive(acme.environmentId);
      const pulled = await pulledValues(store);
      expect(live.map((s) => [s.key, pulled[s.key], s.version])).toEqual(
        [...KEYS].sort().map((key) => [key, last.value, n]),
      );

      // Every applied push's event exactly once, every conflict recorded, one unbroken chain.
      const events: ActivityEvent[] = (
        await store.activity.list({ organizationId: acme.organizationId, limit: 1_000_000 })
      ).reverse();
      const pushEvents = events.filter((e) => e.type === 'push_applied');
      expect(pushEvents.map((e) => e.id).sort()).toEqual(applied.map((a) => a.event_id).sort());
      expect(events.filter((e) => e.type === 'push_conflict')).toHaveLength(conflicts);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(verifyChain(events)).toBe(-1);
      // The processes sealed one another's pending events: one Merkle tree over the whole chain.
      const tree = appendLeaves(EMPTY_TREE, events.map(eventLeafHash)).tree;
      expect(await store.activity.treeHead(acme.organizationId)).toEqual({
        size: events.length,
        rootHash: treeRoot(tree),
      });
      // The export an auditor would take verifies too, against the signed checkpoint.
      const exported = await acme.core.handle({
        method: 'GET',
        url: '/api/v2/organizations/acme/activity/export',
        headers: { authorization: `Bearer ${acme.deviceEnv.TOKEN}` },
      });
      const verdict = await verifyActivityExport(exported.body as AsyncIterable<string>, {
        organization: 'acme',
        publicKey: acme.auditPublicKey,
      });
      expect(verdict).toMatchObject({ ok: true, events: events.length });

      console.log(
        `${PROCESSES} processes x ${PUSHES} pushes: ${n} applied (versions 1..${n}, one winner each), ` +
          `${conflicts} conflicts (409), ${pushEvents.length} push_applied events, ${events.length} events in the chain, chain, tree and signed export verify`,
      );
    }, 180_000);
  });
}
