/** Port: the change requests of protected environments, each changed by compare-and-set. */
import type { ChangeRequest, ChangeRequestStatus } from '../../model/change-request.js';

/** A page of {@link ChangeRequestRepository.list}. */
export interface ChangeRequestQuery {
  environmentId: string;
  status?: ChangeRequestStatus | undefined;
  /** Only requests older than this one (newest-first keyset paging by `created_at`, then id). */
  before?: { created_at: string; id: string } | undefined;
  limit: number;
}

/** What {@link ChangeRequestRepository.create} did. */
export type ChangeRequestCreateResult = 'created' | 'limit';

/** The fields a change may set; `revision` grows by one with each. */
export type ChangeRequestPatch = Partial<
  Pick<ChangeRequest, 'status' | 'approvals' | 'rejection' | 'applied'>
>;

export interface ChangeRequestRepository {
  /**
   * Inserts the request unless its environment already has `maxOpen` requests that are `open` or
   * `approved`; the count and the insert are one atomic step (SQL: the environment's row locked).
   */
  create(request: ChangeRequest, maxOpen: number): Promise<ChangeRequestCreateResult>;
  /** The organization's request of that id, or null (another organization's is null too). */
  get(organizationId: string, id: string): Promise<ChangeRequest | null>;
  /** The environment's requests, newest first, at most `limit`. */
  list(query: ChangeRequestQuery): Promise<ChangeRequest[]>;
  /**
   * Applies `patch` only while the request's `revision` is still `revision` (compare-and-set), and
   * returns the request as changed, or null when it moved (or does not exist): the caller reads it
   * again. Two concurrent updates of one revision: exactly one succeeds.
   */
  update(id: string, revision: number, patch: ChangeRequestPatch): Promise<ChangeRequest | null>;
  /**
   * The environment's requests still `open` or `approved` as stored (one past its expiry too, which
   * its next read marks expired), oldest first (by `created_at`, then id): what a backup carries.
   */
  listOpen(environmentId: string): Promise<ChangeRequest[]>;
}
