/**
 * Migration 7: limits of staged restores. One open restore per organization (a unique index: a
 * second begin, even at the same instant, finds the first), and the size of each part as the client
 * sent it with the running total on its session, so parts cannot hold more than the manifest
 * declares. Restores staged before this migration are dropped: their sizes were not recorded, and
 * a session lives two hours at most; the client begins again.
 */
import { migration } from './migration.js';

export const restoreLimits = migration(7, 'restore-limits', (t) => [
  `DELETE FROM ${t.restoreSessions}`,
  `CREATE UNIQUE INDEX restore_sessions_one_per_organization ON ${t.restoreSessions} (organization_id)`,
  `ALTER TABLE ${t.restoreSessions} ADD COLUMN bytes bigint NOT NULL DEFAULT 0`,
  `ALTER TABLE ${t.restoreParts} ADD COLUMN bytes bigint NOT NULL DEFAULT 0`,
]);
