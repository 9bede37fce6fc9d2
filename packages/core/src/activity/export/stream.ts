/**
 * Streaming an organization's activity, oldest first, from the store in keyset pages: never the
 * whole log in memory, and each page read only when the client has taken the previous one (the
 * response body is pulled). The export covers the chain as it stood when it started, so events
 * written meanwhile neither stretch it nor slip into its middle.
 */

import type { ActivityEvent } from '../../model/model.js';
import type { ActivityQuery, StoreTransaction } from '../../store/types.js';
import { type ChainHead, GENESIS_HASH } from '../chain.js';

/** Events per store query. */
export const EXPORT_PAGE = 5_000;

/** The filters of an export. */
export type ExportFilter = Pick<ActivityQuery, 'organizationId' | 'types' | 'since' | 'until'>;

/** The organization's newest event's seq and hash (0 and the genesis hash when it has none). */
export async function chainHead(
  store: Pick<StoreTransaction, 'activity'>,
  organizationId: string,
): Promise<ChainHead> {
  const newest = (await store.activity.list({ organizationId, limit: 1 }))[0];
  return newest ? { seq: newest.seq, hash: newest.hash } : { seq: 0, hash: GENESIS_HASH };
}

/**
 * Pages of `read(afterSeq)` (oldest first) up to `lastSeq`, until there are no more. The query
 * itself has no upper bound: "after this seq, in seq order, the first N" is an ordered index scan
 * that stops early whatever the table's statistics say, where an added upper bound can tempt the
 * planner to fetch and sort the whole remaining range for every page.
 */
async function* pages<T extends { seq: number }>(
  read: (afterSeq: number) => Promise<T[]>,
  lastSeq: number,
): AsyncGenerator<T[]> {
  if (lastSeq <= 0) return;
  let next: Promise<T[]> | null = read(0);
  while (next) {
    const page: T[] = await next;
    const within =
      page.length > 0 && page[page.length - 1]!.seq > lastSeq ? page.filter((e) => e.seq <= lastSeq) : page;
    const last = within[within.length - 1];
    // Ask for the next page before handing this one over, so reading and writing overlap: at most
    // two pages are held at once.
    next = within.length === EXPORT_PAGE && last && last.seq < lastSeq ? read(last.seq) : null;
    if (within.length > 0) yield within;
  }
}

const pageQuery = (filter: ExportFilter, afterSeq: number): ActivityQuery => ({
  ...filter,
  afterSeq,
  oldestFirst: true,
  limit: EXPORT_PAGE,
});

/** Pages of the events `filter` selects with `seq` up to `lastSeq`, oldest first. */
export function exportPages(
  store: Pick<StoreTransaction, 'activity'>,
  filter: ExportFilter,
  lastSeq: number,
): AsyncGenerator<ActivityEvent[]> {
  return pages((after) => store.activity.list(pageQuery(filter, after)), lastSeq);
}

/** The same pages, each event as its stored JSON text (for NDJSON: nothing parsed or re-serialised). */
export function exportJsonPages(
  store: Pick<StoreTransaction, 'activity'>,
  filter: ExportFilter,
  lastSeq: number,
): AsyncGenerator<{ seq: number; json: string }[]> {
  return pages((after) => store.activity.listJson(pageQuery(filter, after)), lastSeq);
}
