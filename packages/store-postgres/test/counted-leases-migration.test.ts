/**
 * Migration 19 counts the leases live when it runs into `webhook_leases` (expired ones and unleased
 * deliveries left out), drops the index on `lease_until` and gives the outbox's pages room, so an
 * engine's in-flight limits go on counting the claims made before it.
 */
import { describe, expect, it } from 'vitest';
import { createPostgresStore, MIGRATIONS, migrate, tablesOf } from '../src/index.js';
import { freshPglite } from './fresh-pglite.js';

describe('migration 19 on PGlite', () => {
  it('counts the live leases per webhook and lease end, drops the lease index, leaves room in pages', async () => {
    const driver = await freshPglite();
    const t = tablesOf('latchkey');
    await migrate(
      driver,
      t,
      MIGRATIONS.filter((m) => m.id < 19),
    );
    const created = '2026-11-01T00:00:00.000Z';
    const live = new Date(Date.now() + 60_000).toISOString();
    const ended = new Date(Date.now() - 60_000).toISOString();
    await driver.query(`INSERT INTO ${t.organizations} VALUES ('org_1', 'acme', 'Acme', $1)`, [created]);
    for (const hook of ['awh_a', 'awh_b'])
      await driver.query(
        `INSERT INTO ${t.webhooks} (id, organization_id, name, url, status, secret_sealed, created_at, created_by)
         VALUES ($1, 'org_1', $1, 'https://hooks.example/', 'active', 's', $2, 'admin')`,
        [hook, created],
      );
    const deliveries: [string, string, string | null][] = [
      ['dlv_1', 'awh_a', live],
      ['dlv_2', 'awh_a', live],
      ['dlv_3', 'awh_a', ended],
      ['dlv_4', 'awh_a', null],
      ['dlv_5', 'awh_b', live],
    ];
    for (const [id, hook, lease] of deliveries)
      await driver.query(
        `INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, attempts,
           next_attempt_at, lease_until, created_at)
         VALUES ($1, 'org_1', $2, $1, 1, 'pending', 0, $3, $4, $3)`,
        [id, hook, created, lease],
      );
    const store = await createPostgresStore({ driver });
    expect(store.migrations?.applied).toEqual(MIGRATIONS.filter((m) => m.id >= 19).map((m) => m.id));
    const { rows } = await driver.query<{ webhook_id: string; lease_until: Date | string; leased: number }>(
      `SELECT webhook_id, lease_until, leased FROM ${t.leases} ORDER BY webhook_id`,
    );
    expect(rows.map((r) => [r.webhook_id, new Date(r.lease_until).toISOString(), r.leased])).toEqual([
      ['awh_a', live, 2],
      ['awh_b', live, 1],
    ]);
    const indexes = await driver.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'latchkey' AND tablename = 'webhook_deliveries'`,
    );
    expect(indexes.rows.map((r) => r.indexname)).not.toContain('webhook_deliveries_leased');
    const options = await driver.query<{ reloptions: string[] | string | null }>(
      `SELECT reloptions FROM pg_class WHERE oid = '${t.deliveries}'::regclass`,
    );
    expect(String(options.rows[0]?.reloptions)).toContain('fillfactor=60');
    await store.close();
  });
});
