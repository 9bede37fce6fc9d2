/**
 * Streaming an organization's activity, oldest first, from the store in keyset pages: never the
 * whole log in memory, and each page read only when the client has taken the previous one (the
 * response body is pulled). The export covers the chain as it stood when it started, so events
 * written meanwhile neither stretch it nor slip into its middle.
 */
import { type ChainHead, GENESIS_HASH } from '../activity.js';
import type { ActivityEvent } from '../model.js';
import type { ActivityQuery, LatchkeyStore } from '../store/types.js';

/** Events per store query. */
export const EXPORT_PAGE = 1_000;

/** The filters of an export. */
export type ExportFilter = Pick<ActivityQuery, 'organizationId' | 'types' | 'since' | 'until'>;

/** The organization's newest event's seq and hash (0 and the genesis hash when it has none). */
export async function chainHead(store: LatchkeyStore, organizationId: string): Promise<ChainHead> {
  const newest = (await store.activity.list({ organizationId, limit: 1 }))[0];
  return newest ? { seq: newest.seq, hash: newest.hash } : { seq: 0, hash: GENESIS_HASH };
}

/** Pages of `read(afterSeq)` (oldest first, `seq` up to `lastSeq`), until there are no more. */
async function* pages<T extends { seq: number }>(
  read: (afterSeq: number) => Promise<T[]>,
  lastSeq: number,
): AsyncGenerator<T[]> {
  let after = 0;
  while (after < lastSeq) {
    const page = await read(after);
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]!.seq;
    if (page.length < EXPORT_PAGE) return;
  }
}

const pageQuery = (filter: ExportFilter, afterSeq: number, lastSeq: number): ActivityQuery => ({
  ...filter,
  afterSeq,
  beforeSeq: lastSeq + 1,
  oldestFirst: true,
  limit: EXPORT_PAGE,
});

/** Pages of the events `filter` selects with `seq` up to `lastSeq`, oldest first. */
export function exportPages(
  store: LatchkeyStore,
  filter: ExportFilter,
  lastSeq: number,
): AsyncGenerator<ActivityEvent[]> {
  return pages((after) => store.activity.list(pageQuery(filter, after, lastSeq)), lastSeq);
}

/** The same pages, each event as its stored JSON text (for NDJSON: nothing parsed or re-serialised). */
export function exportJsonPages(
  store: LatchkeyStore,
  filter: ExportFilter,
  lastSeq: number,
): AsyncGenerator<{ seq: number; json: string }[]> {
  return pages((after) => store.activity.listJson(pageQuery(filter, after, lastSeq)), lastSeq);
}
