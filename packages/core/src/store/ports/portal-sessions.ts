/** Port: portal sessions, stored with the SHA-256 of their token only. */
import type { PortalSession } from '../../model/portal-session.js';

/** What {@link PortalSessionRepository.create} did. */
export type PortalSessionCreateResult = 'created' | 'limit';

/**
 * Session ids and token hashes are unique (random). A session is live until it expires or is
 * revoked; ended sessions are deleted by the organization's next create, so an organization never
 * holds more rows than its bound.
 */
export interface PortalSessionRepository {
  /**
   * Deletes the organization's ended sessions (revoked, or expiring at or before `nowIso`), then
   * inserts `session` unless `max` live ones remain (`limit`, nothing inserted): one atomic step,
   * so two concurrent creates cannot both pass the bound.
   */
  create(session: PortalSession, max: number, nowIso: string): Promise<PortalSessionCreateResult>;
  /** The session whose token has this hex SHA-256, ended or not; null when none. */
  findByHash(tokenHash: string): Promise<PortalSession | null>;
  /** The session with this id in any organization, ended or not (the caller checks both). */
  get(id: string): Promise<PortalSession | null>;
  /** The organization's live sessions at `nowIso` (of `user` alone when given), oldest first. */
  listLive(organizationId: string, nowIso: string, user?: string): Promise<PortalSession[]>;
  /**
   * Revokes the session when it is the organization's and live at `at`; returns it as revoked, or
   * null (nothing written) when it is absent, another organization's, or already ended.
   */
  revoke(organizationId: string, id: string, at: string): Promise<PortalSession | null>;
  /** Revokes every session of `user` live at `at`, in one step; returns their ids, oldest first. */
  revokeAllOf(organizationId: string, user: string, at: string): Promise<string[]>;
}
