/**
 * Migration 23: approval policies on environments, and the change requests of protected
 * environments, one row each (its changes, sealed values included, and approvals as JSON), changed
 * by compare-and-set on `revision`. A request goes with its environment (a restore's clearing).
 */
import { migration } from './migration.js';

export const changeRequests = migration(23, 'change-requests', (t) => [
  `ALTER TABLE ${t.environments} ADD COLUMN approval_policy jsonb`,
  `CREATE TABLE ${t.changeRequests} (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      project_id text NOT NULL,
      environment_id text NOT NULL REFERENCES ${t.environments} (id) ON DELETE CASCADE,
      project text NOT NULL,
      environment text NOT NULL,
      status text NOT NULL,
      title text NOT NULL,
      description text NOT NULL,
      created_by text NOT NULL,
      device_id text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      required_approvals integer NOT NULL,
      changes jsonb NOT NULL,
      approvals jsonb NOT NULL,
      rejection jsonb,
      applied jsonb,
      revision integer NOT NULL
    )`,
  `CREATE INDEX change_requests_by_environment ON ${t.changeRequests} (environment_id, created_at DESC, id DESC)`,
]);
