/**
 * Migration 18: a webhook's due deliveries in the order a claim takes them. The claim orders each
 * webhook's pending deliveries by `next_attempt_at, id`; the index of migration 8 ended at
 * `next_attempt_at`, so a claim read and sorted every due delivery of each webhook to take its
 * first few. With `id` in the index it reads just those.
 */
import { migration } from './migration.js';

export const dueDeliveriesInOrder = migration(18, 'due-deliveries-in-order', (t) => [
  `CREATE INDEX webhook_deliveries_due_in_order ON ${t.deliveries} (webhook_id, next_attempt_at, id) WHERE state = 'pending'`,
  `DROP INDEX IF EXISTS ${t.quoted}.webhook_deliveries_due_by_webhook`,
]);
