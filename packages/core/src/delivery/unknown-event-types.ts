/** The API's check of a webhook's filter against the event-type catalog. */
import { EVENT_TYPE_NAMES, isEventType } from '../activity/event-types/index.js';
import { isPrefix } from './event-filter.js';

/**
 * The entries of `filter` that name no event type: a name not in the catalog, or a prefix no
 * catalogued type starts with. The API refuses a filter with any (a 400 naming them).
 */
export function unknownEventTypes(filter: readonly string[]): string[] {
  return filter.filter((pattern) =>
    isPrefix(pattern)
      ? !EVENT_TYPE_NAMES.some((type) => type.startsWith(pattern.slice(0, -1)))
      : !isEventType(pattern),
  );
}
