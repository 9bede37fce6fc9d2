/**
 * Migration 21: a replay of the log to a webhook is a cursor over the events it covers, which the
 * delivery engine moves on a batch at a time, instead of every event queued in the statement that
 * asked for it. One per webhook at a time; it goes with its webhook.
 */
import { migration } from './migration.js';

export const webhookReplays = migration(21, 'webhook-replays', (t) => [
  `CREATE TABLE ${t.replays} (
      webhook_id text PRIMARY KEY REFERENCES ${t.webhooks} (id) ON DELETE CASCADE,
      organization_id text NOT NULL,
      since timestamptz NOT NULL,
      until timestamptz,
      next_seq bigint NOT NULL,
      last_seq bigint NOT NULL,
      created_at timestamptz NOT NULL
    )`,
]);
