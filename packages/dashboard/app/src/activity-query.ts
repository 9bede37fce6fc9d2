/**
 * The Activity page's filters, kept in the URL (`/dashboard/activity?type=…&project=…`), so a
 * reload or a shared link shows the same view: read from `location.search`, written with the
 * History API.
 */
import { useEffect, useState } from 'preact/hooks';
import { currentRoute, navigate } from './router.js';

/** What the history is filtered by; an empty string is no filter. */
export interface ActivityFilters {
  type: string;
  project: string;
  environment: string;
  actor: string;
  /** `datetime-local` values, read in the browser's time zone. */
  from: string;
  to: string;
}

const KEYS = ['type', 'project', 'environment', 'actor', 'from', 'to'] as const;

/** The filters a query string names. */
function parseFilters(search: string): ActivityFilters {
  const params = new URLSearchParams(search);
  const out = {} as ActivityFilters;
  for (const key of KEYS) out[key] = params.get(key)?.trim() ?? '';
  return out;
}

/**
 * The query string of `filters` (empty filters left out), with its `?` when not empty, after the
 * parameters of `keep` that are not filters (the embedded page's session and theme).
 */
function filtersQuery(filters: ActivityFilters, keep = ''): string {
  const params = new URLSearchParams(keep);
  for (const key of KEYS) params.delete(key);
  for (const key of KEYS) if (filters[key]) params.set(key, filters[key]);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filters in the URL now, kept in step with navigation. */
export function useFilters(): [ActivityFilters, (next: ActivityFilters) => void] {
  const [filters, setFilters] = useState(() => parseFilters(location.search));
  useEffect(() => {
    const update = () => setFilters(parseFilters(location.search));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  // The page's own route: Activity, or the embedded page that shows it as a section.
  return [filters, (next) => navigate(`${currentRoute()}${filtersQuery(next, location.search)}`)];
}

/** An RFC 3339 time for the API from a `datetime-local` value, or undefined when empty or invalid. */
function apiTime(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The history and export query parameters the filters give (the API filters these itself). */
export function apiQuery(filters: ActivityFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  const since = apiTime(filters.from);
  const until = apiTime(filters.to);
  if (since) params.set('since', since);
  if (until) params.set('until', until);
  return params;
}
