/**
 * Migration 22: a staged restore being applied in short steps (PGlite, where one transaction holds
 * every other caller) is marked on its session, so that a store opening after a crash finds the
 * restore that did not end and empties its organization, and the sweep of expired sessions leaves
 * it alone meanwhile.
 */
import { migration } from './migration.js';

export const restoresInSteps = migration(22, 'restores-in-steps', (t) => [
  `ALTER TABLE ${t.restoreSessions} ADD COLUMN applying boolean NOT NULL DEFAULT false`,
]);
