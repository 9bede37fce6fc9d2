/**
 * Migration 9: audit webhooks' event-type filters. Each webhook keeps its filter as an array of
 * type names and prefixes ending in `*`; empty (every existing webhook) means every event. The
 * outbox tests it against the entries that select an event's type (`&&`), in the statement that
 * stores the event.
 */
import { migration } from './migration.js';

export const eventTypeFilters = migration(9, 'event-type-filters', (t) => [
  `ALTER TABLE ${t.webhooks} ADD COLUMN event_types text[] NOT NULL DEFAULT '{}'`,
]);
