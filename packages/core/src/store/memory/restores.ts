import type { RestoreRepository } from '../ports/restores.js';
import { journaledDelete, journaledSet } from './journaled.js';
import { memoryRestoreParts } from './restore-parts.js';
import { memoryRestoreWrites } from './restore-writes.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** Staged restores and the bulk writes that apply them, in memory. */
export function memoryRestores(state: MemoryState, journal: Journal): RestoreRepository {
  const { sessions, parts } = state.restores;
  const dropSession = (id: string) => {
    journaledDelete(sessions, id, journal);
    journaledDelete(parts, id, journal);
  };
  return {
    async begin(session, now) {
      for (const old of [...sessions.values()]) if (old.expires_at <= now) dropSession(old.id);
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
    async end(sessionId) {
      dropSession(sessionId);
    },
    ...memoryRestoreParts(state, journal),
    ...memoryRestoreWrites(state, journal),
  };
}
