/** Port: the per-organization, hash-chained activity log. */
import type { ActivityDraft, ActivityEvent } from '../../model/model.js';
import type { ActivityTreeReads } from './activity-tree.js';

/** Filters of {@link ActivityRepository.list}; all given ones must hold. */
export interface ActivityQuery {
  organizationId: string;
  /** Only events of this project (slug). */
  project?: string | undefined;
  /** Only events of this environment (slug; give `project` too). */
  environment?: string | undefined;
  /**
   * With `project`: only the project's own events (no environment) and those of these environments
   * (slugs): the project history of a member granted some of its environments.
   */
  projectEnvironments?: readonly string[] | undefined;
  /** Only events of these types. */
  types?: readonly string[] | undefined;
  /** Only events with `seq` below this (newest-first paging by keyset: stable while events are added). */
  beforeSeq?: number | undefined;
  /** Only events with `seq` above this (oldest-first paging, with `oldestFirst`). */
  afterSeq?: number | undefined;
  /** Oldest first (ascending `seq`) instead of newest first. */
  oldestFirst?: boolean | undefined;
  /** Only events that occurred at or after this ISO-8601 UTC time. */
  since?: string | undefined;
  /** Only events that occurred before this ISO-8601 UTC time. */
  until?: string | undefined;
  limit: number;
}

/** What {@link ActivityRepository.streamJson} streams: the export's filters, up to a chain position. */
export interface ActivityStreamQuery
  extends Pick<ActivityQuery, 'organizationId' | 'types' | 'since' | 'until'> {
  /** Only events with `seq` at or below this (the chain head when the export began). */
  throughSeq: number;
}

/**
 * A pending event as the store that stored it describes it (`ApplyPushResult.stored`): where it is
 * in the store's order, the draft's JSON exactly as stored, and the traceparent its deliveries carry.
 */
export interface PendingEvent {
  position: number;
  draft: string;
  traceparent: string | null;
}

/** The log, and its Merkle tree ({@link ActivityTreeReads}). */
export interface ActivityRepository extends ActivityTreeReads {
  /**
   * Seals `draft` after the organization's chain head (see `sealEvent`) and stores it. Appends to one
   * organization are serialised so the chain never forks.
   */
  append(organizationId: string, draft: ActivityDraft): Promise<ActivityEvent>;
  /**
   * Optional, for stores that sequence in batches (their `applyPush` leaves its event pending):
   * seals every event of the organization that is pending when the call reads the store's pending
   * events, in one step, in the order the store keeps them (`sealBatch`: seq, chain hash, tree
   * leaves, and their deliveries by the outbox rule), and returns how many it sealed. Pending events
   * are never visible to the reads below; every other append seals them first. Core calls it
   * through `sealCommitted`, which coalesces concurrent callers.
   *
   * `own`, when given, are pending events this process committed (as `applyPush` described them in
   * `stored`, none sealed by an earlier call of this process): the store may seal just those, in
   * the given order, without reading the others, when it knows the chain head they go after (its
   * last seal); it must seal at least them, or find them sealed.
   */
  sealPending?(organizationId: string, own?: readonly PendingEvent[]): Promise<number>;
  /** Events matching the query, newest first (or oldest first), at most `limit`. */
  list(query: ActivityQuery): Promise<ActivityEvent[]>;
  /**
   * What {@link ActivityRepository.list} returns, each event as its JSON text exactly as stored
   * (`JSON.stringify` of the event): the NDJSON export writes it without parsing and re-serialising.
   */
  listJson(query: ActivityQuery): Promise<{ seq: number; json: string }[]>;
  /**
   * Optional, for stores that can stream a long result: the events `query` selects, oldest first, as
   * their stored JSON lines (each ending in `\n`; text, or UTF-8 bytes), in chunks of whole lines read as the
   * consumer pulls them, in one snapshot. Without it, the export reads {@link listJson} in keyset pages.
   */
  streamJson?(query: ActivityStreamQuery): AsyncIterable<string | Uint8Array>;
}
