/** Port: the per-organization, hash-chained activity log. */
import type { ActivityDraft, ActivityEvent } from '../../model.js';

/** Filters of {@link ActivityRepository.list}. */
export interface ActivityQuery {
  organizationId: string;
  project?: string;
  environment?: string;
  type?: string;
  /** Only events with `seq` below this (newest-first paging). */
  beforeSeq?: number;
  since?: string;
  until?: string;
  limit: number;
}

export interface ActivityRepository {
  /**
   * Seals `draft` after the organization's chain head (see `sealEvent`) and stores it. Appends to one
   * organization are serialised so the chain never forks.
   */
  append(organizationId: string, draft: ActivityDraft): Promise<ActivityEvent>;
  /** Events matching the query, newest first. */
  list(query: ActivityQuery): Promise<ActivityEvent[]>;
}
