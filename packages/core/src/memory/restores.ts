import type { RestoreRepository } from '../store/ports/restores.js';
import { journaledDelete, journaledSet } from './journaled.js';
import { memoryRestoreParts } from './restore-parts.js';
import { memoryRestoreWrites } from './restore-writes.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** Staged restores and the bulk writes that apply them, in memory. */
export function memoryRestores(state: MemoryState, journal: Journal): RestoreRepository {
  const { sessions, parts, claimed } = state.restores;
  const dropSession = (id: string) => {
    journaledDelete(sessions, id, journal);
    journaledDelete(parts, id, journal);
    if (claimed.delete(id)) journal?.push(() => claimed.add(id));
  };
  return {
    async begin(session, now) {
      // A restore being applied is left to end, however long it has been open.
      for (const old of [...sessions.values()]) {
        if (old.expires_at <= now && !claimed.has(old.id)) dropSession(old.id);
      }
      for (const open of sessions.values()) {
        if (open.organization_id === session.organization_id) return clone(open);
      }
      journaledSet(sessions, session.id, clone(session), journal);
      journaledSet(parts, session.id, new Map(), journal);
      return null;
    },
    async get(organizationId, id, now) {
      const session = sessions.get(id);
      if (!session || session.organization_id !== organizationId || session.expires_at <= now) return null;
      return clone(session);
    },
    async claim(organizationId, id, now) {
      const session = sessions.get(id);
      if (!session || session.organization_id !== organizationId || session.expires_at <= now) return null;
      if (claimed.has(id)) return null;
      claimed.add(id);
      journal?.push(() => claimed.delete(id));
      return clone(session);
    },
    async end(sessionId) {
      dropSession(sessionId);
    },
    ...memoryRestoreParts(state, journal),
    ...memoryRestoreWrites(state, journal),
  };
}
