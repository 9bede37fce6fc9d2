/**
 * Migration 4: running totals of delivery attempts per webhook, before minute boundaries, so a
 * metrics window reads two totals and one minute per webhook instead of every minute and hour it
 * spans. Taken on first use from the rollups; nothing to fill in here.
 */
import { migration } from './migration.js';

export const runningTotals = migration(4, 'running-totals', (t) => [
  `CREATE TABLE ${t.totals} (
      webhook_id text NOT NULL,
      boundary timestamptz NOT NULL,
      organization_id text NOT NULL,
      attempted bigint NOT NULL,
      succeeded bigint NOT NULL,
      failed bigint NOT NULL,
      buckets jsonb NOT NULL,
      histogram jsonb NOT NULL,
      PRIMARY KEY (webhook_id, boundary)
    )`,
  `CREATE INDEX webhook_running_totals_by_organization ON ${t.totals} (organization_id, boundary)`,
  `CREATE INDEX webhook_running_totals_by_boundary ON ${t.totals} (boundary)`,
]);
