/**
 * Migration 5: staged restores, and event ids unique per organization rather than across the
 * database, so a backup can be restored (its chain verbatim) into another organization of the same
 * server while the original still exists.
 */

import { organizationTable } from './columns.js';
import { migration } from './migration.js';

export const restores = migration(5, 'restores', (t) => [
  `${organizationTable(t, t.restoreSessions)}
      user_id text NOT NULL,
      manifest jsonb NOT NULL,
      force boolean NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
  `CREATE INDEX restore_sessions_by_expiry ON ${t.restoreSessions} (expires_at)`,
  // Parts are sealed by the core when the host has a keyring: they hold secret values.
  `CREATE TABLE ${t.restoreParts} (
      session_id text NOT NULL REFERENCES ${t.restoreSessions} (id) ON DELETE CASCADE,
      part integer NOT NULL,
      data text NOT NULL,
      PRIMARY KEY (session_id, part)
    )`,
  `DO $$
     DECLARE name text;
     BEGIN
       SELECT c.conname INTO name FROM pg_constraint c
        WHERE c.conrelid = '${t.events}'::regclass AND c.contype = 'u'
          AND c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                                 WHERE a.attrelid = '${t.events}'::regclass AND a.attname = 'id')];
       IF name IS NOT NULL THEN
         EXECUTE format('ALTER TABLE ${t.events} DROP CONSTRAINT %I', name);
       END IF;
     END $$`,
  `CREATE UNIQUE INDEX activity_events_id_by_organization ON ${t.events} (organization_id, id)`,
]);
