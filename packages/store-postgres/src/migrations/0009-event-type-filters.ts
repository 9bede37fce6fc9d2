/**
 * Migration 9: audit webhooks' event-type filters. Each webhook keeps its filter as an array of
 * type names and prefixes ending in `*`; empty (every existing webhook) means every event. The
 * outbox tests it against the entries that select an event's type (`&&`), in the statement that
 * stores the event.
 */
import type { Migration } from './migration.js';

export const eventTypeFilters: Migration = {
  id: 9,
  name: 'event-type-filters',
  statements: (t) => [`ALTER TABLE ${t.webhooks} ADD COLUMN event_types text[] NOT NULL DEFAULT '{}'`],
};
