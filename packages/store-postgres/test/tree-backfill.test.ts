/**
 * Migration 14 and the tree back-fill: a log written before the Merkle tree existed gets its tree
 * when the store opens, in batches, equal to the tree of the events history returns; appends made
 * while a tree lags leave it to the back-fill, which catches up with them; a second run does nothing.
 */
import type { ActivityEvent } from '@latchkey/core';
import { verifyInclusion } from '@latchkey/core/client';
import {
  appendLeaves,
  EMPTY_TREE,
  eventLeafHash,
  inclusionProof,
  sealEvent,
  treeRoot,
} from '@latchkey/core/store';
import { describe, expect, it } from 'vitest';
import {
  backfillTrees,
  createPostgresStore,
  MIGRATIONS,
  migrate,
  type PostgresStore,
  tablesOf,
} from '../src/index.js';
import { freshPglite } from './fresh-pglite.js';

const at = '2026-11-01T00:00:00.000Z';

function log(organization: string, n: number): ActivityEvent[] {
  const out: ActivityEvent[] = [];
  for (let i = 0; i < n; i++) {
    const last = out.at(-1);
    const draft = {
      id: `evt_${organization}_${i}`,
      type: 'push_applied',
      occurred_at: at,
      organization,
      actor: { type: 'user' as const, id: 'alice' },
      data: { i },
    };
    out.push(sealEvent(draft, last ? { seq: last.seq, hash: last.hash } : null));
  }
  return out;
}

/** The tree of what history returns, checked against the store's head and an inclusion proof per event. */
async function expectTree(store: PostgresStore, orgId: string) {
  const events = await store.activity.list({ organizationId: orgId, oldestFirst: true, limit: 500 });
  const root = treeRoot(appendLeaves(EMPTY_TREE, events.map(eventLeafHash)).tree);
  expect(await store.activity.treeHead(orgId)).toEqual({ size: events.length, rootHash: root });
  for (const [i, event] of events.entries()) {
    const hashes = await inclusionProof(i, events.length, (a) => store.activity.treeNodes(orgId, a));
    const input = {
      leafHash: eventLeafHash(event),
      leafIndex: i,
      treeSize: events.length,
      hashes,
      rootHash: root,
    };
    expect(verifyInclusion(input)).toBe(true);
  }
}

describe('migration 14 and the tree back-fill on PGlite', () => {
  it('back-fills logs written before the tree when the store opens; appends go on from it', async () => {
    const driver = await freshPglite();
    const t = tablesOf('latchkey');
    await migrate(
      driver,
      t,
      MIGRATIONS.filter((m) => m.id < 14),
    );
    for (const [orgId, n] of [
      ['org_1', 2600],
      ['org_2', 3],
    ] as const) {
      const events = log(orgId, n);
      await driver.query(`INSERT INTO ${t.organizations} VALUES ($1, $1, 'O', $2)`, [orgId, at]);
      await driver.query(
        `INSERT INTO ${t.events} (organization_id, seq, id, type, occurred_at, body)
         SELECT $1, s, i, 'push_applied', $2, b FROM unnest($3::bigint[], $4::text[], $5::text[]) AS u(s, i, b)`,
        [orgId, at, events.map((e) => e.seq), events.map((e) => e.id), events.map((e) => JSON.stringify(e))],
      );
      await driver.query(`INSERT INTO ${t.chains} (organization_id, seq, hash) VALUES ($1, $2, $3)`, [
        orgId,
        n,
        events.at(-1)!.hash,
      ]);
    }
    const store = await createPostgresStore({ driver });
    expect(store.migrations?.applied).toContain(14);
    await expectTree(store, 'org_2');
    expect((await store.activity.treeHead('org_1'))?.size).toBe(2600);
    await store.activity.append('org_2', log('org_2', 4)[3]!);
    await expectTree(store, 'org_2');
    await store.close();
  });

  it('leaves a lagging tree to the back-fill, which catches up in batches and is then a no-op', async () => {
    const driver = await freshPglite();
    const t = tablesOf('latchkey');
    const store = await createPostgresStore({ driver });
    await driver.query(`INSERT INTO ${t.organizations} VALUES ('org_1', 'acme', 'Acme', $1)`, [at]);
    const events = log('org_1', 11);
    for (const event of events.slice(0, 7)) await store.activity.append('org_1', event);
    // As if the log predated the tree.
    await driver.query(`UPDATE ${t.chains} SET tree_size = 0, tree_frontier = ''::bytea`);
    await driver.query(`DELETE FROM ${t.treeNodes}`);
    for (const event of events.slice(7)) await store.activity.append('org_1', event);
    expect((await store.activity.treeHead('org_1'))?.size).toBe(0);
    expect(await backfillTrees(driver, t, 3)).toEqual({ organizations: 1, events: 11 });
    await expectTree(store, 'org_1');
    expect(await backfillTrees(driver, t, 3)).toEqual({ organizations: 0, events: 0 });
    await store.close();
  });
});
