/**
 * A page of an organization's activity history, newest first, walked with an opaque cursor. Pages
 * are cut by `seq` (keyset), so a walk returns every event once even while new ones are written:
 * those land above the first page, never between two pages.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ActivityEvent } from '../model/model.js';
import type { ActivityQuery, LatchkeyStore } from '../store/types.js';

/** What the caller asks of the page, as the history query reads it. */
export interface HistoryPageQuery {
  /** Events per page; default 50. */
  limit?: number | undefined;
  /** The `next_cursor` of the page before. */
  cursor?: string | undefined;
  /** Comma-separated event types. */
  type?: string | undefined;
  /** RFC 3339, inclusive. */
  since?: string | undefined;
  /** RFC 3339, exclusive. */
  until?: string | undefined;
}

/** A page of events, newest first, and the cursor of the next page (null on the last). */
export interface HistoryPage {
  events: ActivityEvent[];
  nextCursor: string | null;
}

/** The cursor of the page after the one ending at `seq`: opaque to clients, a version and the seq inside. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`c1:${seq}`).toString('base64url');
}

/** The `seq` a cursor stands for, or a 400 for anything not made by {@link encodeCursor}. */
export function decodeCursor(cursor: string): number {
  const match = /^c1:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const seq = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(seq)) {
    throw new LatchkeyError('invalid_request', 'The cursor is not one this API gave out.', {
      details: [{ path: 'query.cursor', message: 'not a next_cursor of an earlier page' }],
    });
  }
  return seq;
}

/** One page of the organization's events `filter` selects, with the query's own filters applied. */
export async function historyPage(
  store: LatchkeyStore,
  organizationId: string,
  filter: Partial<ActivityQuery>,
  query: HistoryPageQuery,
): Promise<HistoryPage> {
  const limit = query.limit ?? 50;
  const events: ActivityEvent[] = await store.activity.list({
    organizationId,
    ...filter,
    types: query.type?.split(','),
    since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
    until: query.until === undefined ? undefined : new Date(query.until).toISOString(),
    beforeSeq: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  const shown = events.slice(0, limit);
  const last = shown[shown.length - 1];
  return { events: shown, nextCursor: events.length > limit && last ? encodeCursor(last.seq) : null };
}
