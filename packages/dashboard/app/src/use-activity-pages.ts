/**
 * The history the Activity page shows: pages of 50 over the API's cursor, newest first, appended by
 * "Load more". The API filters by route (project, environment), type and time; the actor filter
 * is applied here, reading further pages (up to a bound) until a screen of matches is found.
 */
import { useState } from 'preact/hooks';
import { type ActivityFilters, apiQuery } from './activity-query.js';
import { type ApiError, api } from './api.js';
import type { ActivityEvent, HistoryPage } from './types.js';
import { type RequestState, useRequest } from './use-request.js';

/** Events on a screen. */
const PAGE_SIZE = 50;
/** Pages read at most per screen while looking for an actor's events. */
const ACTOR_PAGES = 10;

/** The events loaded so far, and the way to the next screen (null at the end). */
export interface ActivityPages {
  state: RequestState<{ events: ActivityEvent[]; cursor: string | null }>;
  more: (() => void) | null;
  loadingMore: boolean;
  /** Why the last "Load more" failed, if it did. */
  moreError: ApiError | undefined;
}

async function readScreen(path: string, filters: ActivityFilters, from: string | null) {
  const events: ActivityEvent[] = [];
  let cursor = from;
  const actor = filters.actor;
  for (let read = 0; read < (actor ? ACTOR_PAGES : 1); read++) {
    const query = apiQuery(filters);
    query.set('limit', String(actor ? 500 : PAGE_SIZE));
    if (cursor) query.set('cursor', cursor);
    const page = await api<HistoryPage>('GET', `${path}?${query}`);
    events.push(...(actor ? page.events.filter((e) => e.actor.id === actor) : page.events));
    cursor = page.next_cursor;
    if (!cursor || events.length >= PAGE_SIZE) break;
  }
  return { events, cursor };
}

/** The history at `path` under `filters`; starts again when either changes. */
export function useActivityPages(path: string, filters: ActivityFilters): ActivityPages {
  const [extra, setExtra] = useState<{ key: string; events: ActivityEvent[]; cursor: string | null }>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<ApiError>();
  const key = `${path}?${JSON.stringify(filters)}`;
  const first = useRequest(() => readScreen(path, filters, null), key);
  const mine = extra?.key === key ? extra : undefined;
  const events = [...(first.data?.events ?? []), ...(mine?.events ?? [])];
  const cursor = mine ? mine.cursor : (first.data?.cursor ?? null);
  const state = { ...first, data: first.data ? { events, cursor } : undefined };
  const more =
    cursor && !loadingMore
      ? () => {
          setLoadingMore(true);
          setMoreError(undefined);
          readScreen(path, filters, cursor)
            .then((next) =>
              setExtra({ key, events: [...(mine?.events ?? []), ...next.events], cursor: next.cursor }),
            )
            .catch((error: ApiError) => setMoreError(error))
            .finally(() => setLoadingMore(false));
        }
      : null;
  return { state, more, loadingMore, moreError };
}
