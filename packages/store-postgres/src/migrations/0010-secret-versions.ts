/**
 * Migration 10: the history of each key. One row per version a push wrote (a tombstone too), keyed
 * by environment, key and version, so a page of one key's history newest first, the pruning of
 * values beyond the kept ones and the re-encrypt walk are each an index range (the kept values
 * have their own partial index, so pruning reads only them). Every
 * existing head is back-filled as a version with its value and no actor or event (the push that
 * wrote it is not looked up).
 */

import { secretVersionColumns } from './columns.js';
import { migration } from './migration.js';

export const secretVersions = migration(10, 'secret-versions', (t) => [
  `CREATE TABLE ${t.secretVersions} (
      ${secretVersionColumns(t)}
      occurred_at timestamptz NOT NULL,
      actor_type text,
      actor_id text,
      device_id text,
      event_id text,
      PRIMARY KEY (environment_id, key, version)
    )`,
  // The versions whose value is still kept: what a push prunes and the re-encrypt routine walks.
  `CREATE INDEX secret_versions_kept ON ${t.secretVersions} (environment_id, key, version) WHERE value IS NOT NULL`,
  `INSERT INTO ${t.secretVersions} (environment_id, key, version, deleted, value, occurred_at)
     SELECT environment_id, key, version, deleted, value, updated_at FROM ${t.secrets} WHERE version > 0`,
]);
