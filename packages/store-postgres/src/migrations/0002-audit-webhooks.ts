/**
 * Migration 2: audit webhooks, their delivery outbox (written with each event, in its transaction),
 * the attempt log and the minute/hour metrics rollups.
 */

import { organizationTable } from './columns.js';
import { migration } from './migration.js';

export const auditWebhooks = migration(2, 'audit-webhooks', (t) => [
  `${organizationTable(t, t.webhooks)}
      name text NOT NULL,
      url text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'disabled', 'dead_letter')),
      secret_sealed text NOT NULL,
      consecutive_failures integer NOT NULL DEFAULT 0,
      last_delivery jsonb,
      last_error jsonb,
      created_at timestamptz NOT NULL,
      created_by text NOT NULL
    )`,
  // Read by every event append (fan-out) and every listing.
  `CREATE INDEX audit_webhooks_by_organization ON ${t.webhooks} (organization_id, created_at, id)`,
  // What is still owed: delivered and cancelled deliveries are deleted (the attempt log keeps the history).
  `CREATE TABLE ${t.deliveries} (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      webhook_id text NOT NULL REFERENCES ${t.webhooks} (id),
      event_id text NOT NULL,
      event_seq bigint NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'held')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      lease_until timestamptz,
      created_at timestamptz NOT NULL
    )`,
  // The workers' claim query: due pending deliveries, oldest first.
  `CREATE INDEX webhook_deliveries_due ON ${t.deliveries} (next_attempt_at) WHERE state = 'pending'`,
  `CREATE INDEX webhook_deliveries_by_webhook ON ${t.deliveries} (webhook_id, state, event_id)`,
  `CREATE TABLE ${t.attempts} (
      position bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      organization_id text NOT NULL,
      webhook_id text NOT NULL,
      delivery_id text,
      event_id text NOT NULL,
      event_type text NOT NULL,
      attempt integer NOT NULL,
      at timestamptz NOT NULL,
      succeeded boolean NOT NULL,
      status_code integer,
      latency_ms integer NOT NULL,
      error jsonb,
      next_attempt_at timestamptz
    )`,
  `CREATE INDEX webhook_attempts_by_webhook ON ${t.attempts} (webhook_id, position)`,
  `CREATE INDEX webhook_attempts_by_time ON ${t.attempts} (at)`,
  `CREATE TABLE ${t.rollups} (
      webhook_id text NOT NULL,
      unit text NOT NULL CHECK (unit IN ('minute', 'hour')),
      start timestamptz NOT NULL,
      organization_id text NOT NULL,
      attempted integer NOT NULL,
      succeeded integer NOT NULL,
      failed integer NOT NULL,
      buckets jsonb NOT NULL,
      histogram jsonb NOT NULL,
      PRIMARY KEY (webhook_id, unit, start)
    )`,
  `CREATE INDEX webhook_rollups_by_organization ON ${t.rollups} (organization_id, unit, start)`,
  `CREATE INDEX webhook_rollups_by_start ON ${t.rollups} (start)`,
]);
