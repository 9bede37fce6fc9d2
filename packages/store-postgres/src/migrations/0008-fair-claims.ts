/**
 * Migration 8: fair claims and per-webhook limits. The claim walks the webhooks that have pending
 * deliveries and takes each one's oldest due (an index by webhook and due time); it counts a
 * webhook's attempts in flight from its live leases (an index of the leased deliveries only, a
 * handful per webhook); and it counts the claims of a rate-limited webhook in the current second
 * (one row per such webhook, rewritten when the second changes).
 */
import { migration } from './migration.js';

export const fairClaims = migration(8, 'fair-claims', (t) => [
  `CREATE INDEX webhook_deliveries_due_by_webhook ON ${t.deliveries} (webhook_id, next_attempt_at) WHERE state = 'pending'`,
  `CREATE INDEX webhook_deliveries_leased ON ${t.deliveries} (webhook_id, lease_until) WHERE lease_until IS NOT NULL`,
  `CREATE TABLE ${t.quoted}.webhook_claim_rates (
      webhook_id text PRIMARY KEY REFERENCES ${t.webhooks} (id) ON DELETE CASCADE,
      second timestamptz NOT NULL,
      claimed integer NOT NULL
    )`,
]);
