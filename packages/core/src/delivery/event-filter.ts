/**
 * A webhook's event-type filter: a list of type names and of prefixes ending in `*` (`push_*`); an
 * empty list selects every event. Whether a filter selects an event is decided here once, for the
 * outbox rule of every store (in memory by `filterSelects`, in SQL by `patternsSelecting` and
 * `likePatterns`). It loads no schema code, so the store entry stays light; the API's check of a
 * filter against the catalog is `unknown-event-types.ts`.
 */
/** Whether a filter entry is a prefix (ends in `*`). */
export const isPrefix = (pattern: string) => pattern.endsWith('*');

/** Whether `filter` selects an event of `type`. */
export function filterSelects(filter: readonly string[], type: string): boolean {
  if (filter.length === 0) return true;
  return filter.some((pattern) =>
    isPrefix(pattern) ? type.startsWith(pattern.slice(0, -1)) : pattern === type,
  );
}

/**
 * Every filter entry that would select an event of `type`: the name itself and each of its prefixes
 * followed by `*` (`*` included). A filter selects the event exactly when it shares an entry with
 * this list (or is empty), which SQL tests as an array overlap (`&&`).
 */
export function patternsSelecting(type: string): string[] {
  const patterns = [type];
  for (let i = 0; i <= type.length; i++) patterns.push(`${type.slice(0, i)}*`);
  return patterns;
}

/**
 * The filter as SQL `LIKE` patterns (`type LIKE ANY(…)`): a name matches itself, a prefix what
 * starts with it (`_` and `%` escaped); an empty filter is `%`, every type.
 */
export function likePatterns(filter: readonly string[]): string[] {
  if (filter.length === 0) return ['%'];
  return filter.map((pattern) => {
    const literal = (isPrefix(pattern) ? pattern.slice(0, -1) : pattern).replace(/[\\%_]/g, (c) => `\\${c}`);
    return isPrefix(pattern) ? `${literal}%` : literal;
  });
}

/** The filter as kept: without repeats, in the order given. */
export function normalizeFilter(filter: readonly string[] | undefined): string[] {
  return [...new Set(filter ?? [])];
}
