/** Paging through a webhook's attempt log with the API's `next_cursor`, back and forth. */
import { useState } from 'preact/hooks';
import { api } from './api.js';
import type { DeliveriesPage } from './types.js';
import { type RequestState, useRequest } from './use-request.js';

const PAGE = 10;

/** The page on screen, its number (from 1), and moves to the older and the newer page. */
export interface AttemptPages {
  page: RequestState<DeliveriesPage>;
  number: number;
  /** Null on the last page. */
  older: (() => void) | null;
  /** Null on the first page. */
  newer: (() => void) | null;
}

/** The attempt log of the webhook at `path`, a page at a time. */
export function useAttemptPages(path: string): AttemptPages {
  // The cursors of the pages seen, so "Newer" goes back the way "Older" came.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useRequest(
    () =>
      api<DeliveriesPage>(
        'GET',
        `${path}/deliveries?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    `${path} ${cursor}`,
  );
  const next = page.data?.next_cursor;
  return {
    page,
    number: cursors.length,
    older: next ? () => setCursors([...cursors, next]) : null,
    newer: cursors.length === 1 ? null : () => setCursors(cursors.slice(0, -1)),
  };
}
