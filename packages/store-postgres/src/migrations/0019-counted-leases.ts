/**
 * Migration 19: leases counted apart, so taking one rewrites no index. A claim's lease changed an
 * indexed column (`lease_until`, in the index that counted a webhook's attempts in flight), so each
 * leased delivery got new entries in all of the outbox's indexes. Now each claim adds, per webhook,
 * how many it leased under its lease end to a small table, and recording or giving back a delivery
 * takes it off; the attempts in flight of a webhook are the sum of its unexpired rows there. The
 * index goes, and the outbox leaves room in each page, so a lease is a heap-only (HOT) update.
 * Leases live at the time of the migration are counted into the new table.
 */
import { migration } from './migration.js';

export const countedLeases = migration(19, 'counted-leases', (t) => [
  `CREATE TABLE ${t.leases} (
      webhook_id text NOT NULL REFERENCES ${t.webhooks} (id) ON DELETE CASCADE,
      lease_until timestamptz NOT NULL,
      leased integer NOT NULL,
      PRIMARY KEY (webhook_id, lease_until)
    )`,
  `INSERT INTO ${t.leases} (webhook_id, lease_until, leased)
      SELECT webhook_id, lease_until, count(*) FROM ${t.deliveries}
      WHERE lease_until IS NOT NULL AND lease_until > now() GROUP BY webhook_id, lease_until`,
  `DROP INDEX IF EXISTS ${t.quoted}.webhook_deliveries_leased`,
  `ALTER TABLE ${t.deliveries} SET (fillfactor = 60)`,
]);
