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
export const EXPORT_PAGE = 500;

/** The filters of an export. */
export type ExportFilter = Pick<ActivityQuery, 'organizationId' | 'types' | 'since' | 'until'>;

/** The organization's newest event's seq and hash (0 and the genesis hash when it has none). */
export async function chainHead(store: LatchkeyStore, organizationId: string): Promise<ChainHead> {
  const newest = (await store.activity.list({ organizationId, limit: 1 }))[0];
  return newest ? { seq: newest.seq, hash: newest.hash } : { seq: 0, hash: GENESIS_HASH };
}

/** Pages of the events `filter` selects with `seq` up to `lastSeq`, oldest first. */
export async function* exportPages(
  store: LatchkeyStore,
  filter: ExportFilter,
  lastSeq: number,
): AsyncGenerator<ActivityEvent[]> {
  let after = 0;
  while (after < lastSeq) {
    const events = await store.activity.list({
      ...filter,
      afterSeq: after,
      beforeSeq: lastSeq + 1,
      oldestFirst: true,
      limit: EXPORT_PAGE,
    });
    if (events.length === 0) return;
    yield events;
    after = events[events.length - 1]!.seq;
    if (events.length < EXPORT_PAGE) return;
  }
}
