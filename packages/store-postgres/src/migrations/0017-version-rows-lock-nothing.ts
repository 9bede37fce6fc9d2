/**
 * Migration 17: a version row no longer references its environment by a foreign key. Checking it
 * made every push lock the environment's row (`FOR KEY SHARE`), and concurrent pushes to one
 * environment shared that lock as a multixact: a write to the environment's row, and to the
 * multixact logs, per push. The reference still holds: a version is written only beside its key's
 * head, in the same statement, under that head's lock, and the heads keep their foreign key to the
 * environment; a restore empties versions before environments.
 */
import { migration } from './migration.js';

export const versionRowsLockNothing = migration(17, 'version-rows-lock-nothing', (t) => [
  `ALTER TABLE ${t.secretVersions} DROP CONSTRAINT IF EXISTS secret_versions_environment_id_fkey`,
]);
