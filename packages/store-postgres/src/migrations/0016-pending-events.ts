/**
 * Migration 16: events a push committed but the sequencer has not sealed yet. A push writes its
 * versions, heads and event draft here in its own transaction, without locking the chain head; a
 * seal (one transaction per organization, under the chain head's lock) moves every pending draft
 * of the organization onto the chain, in `n` order, and deletes it here. Readers never look here.
 */
import { migration } from './migration.js';

export const pendingEvents = migration(16, 'pending-events', (t) => [
  `CREATE TABLE ${t.pendingEvents} (
      organization_id text NOT NULL,
      n bigint GENERATED ALWAYS AS IDENTITY,
      id text NOT NULL,
      draft text NOT NULL,
      traceparent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, n)
    )`,
  // The sweep looks for drafts older than its period, left by a process that died before sealing.
  `CREATE INDEX activity_pending_events_by_age ON ${t.pendingEvents} (created_at)`,
]);
