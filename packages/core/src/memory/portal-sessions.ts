import { isLive, type PortalSession } from '../model/portal-session.js';
import type { PortalSessionRepository } from '../store/ports/portal-sessions.js';
import { journaledAssign, journaledDelete, journaledSet } from './journaled.js';
import { clone, type Journal, type MemoryState } from './state.js';

/**
 * The sessions of each memory store, by id: at most the bound of live ones per organization, and
 * the ended ones until its next create.
 */
const SESSIONS = new WeakMap<MemoryState, Map<string, PortalSession>>();

/** Portal sessions in memory, by id; a token is found by a scan of the sessions' hashes. */
export function memoryPortalSessions(state: MemoryState, journal: Journal): PortalSessionRepository {
  const sessions = SESSIONS.get(state) ?? new Map<string, PortalSession>();
  SESSIONS.set(state, sessions);
  const ofOrganization = (organizationId: string) =>
    [...sessions.values()].filter((s) => s.organization_id === organizationId);
  return {
    async create(session, max, nowIso) {
      const now = Date.parse(nowIso);
      const own = ofOrganization(session.organization_id);
      for (const ended of own.filter((s) => !isLive(s, now))) journaledDelete(sessions, ended.id, journal);
      if (own.filter((s) => isLive(s, now)).length >= max) return 'limit';
      journaledSet(sessions, session.id, clone(session), journal);
      return 'created';
    },
    async findByHash(tokenHash) {
      for (const session of sessions.values()) if (session.token_hash === tokenHash) return clone(session);
      return null;
    },
    async get(id) {
      const session = sessions.get(id);
      return session ? clone(session) : null;
    },
    async listLive(organizationId, nowIso, user) {
      const now = Date.parse(nowIso);
      return ofOrganization(organizationId)
        .filter((s) => isLive(s, now) && (user === undefined || s.user === user))
        .sort(byCreation)
        .map(clone);
    },
    async revoke(organizationId, id, at) {
      const session = sessions.get(id);
      if (!session || session.organization_id !== organizationId || !isLive(session, Date.parse(at)))
        return null;
      journaledAssign(session, { revoked_at: at }, journal);
      return clone(session);
    },
    async revokeAllOf(organizationId, user, at) {
      const now = Date.parse(at);
      const live = ofOrganization(organizationId)
        .filter((s) => s.user === user && isLive(s, now))
        .sort(byCreation);
      for (const session of live) journaledAssign(session, { revoked_at: at }, journal);
      return live.map((s) => s.id);
    },
  };
}

function byCreation(a: PortalSession, b: PortalSession): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1;
}
