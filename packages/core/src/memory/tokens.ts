import type { TokenRepository } from '../store/ports/tokens.js';
import { journaledAssign, journaledSet } from './journaled.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** API tokens in memory, by id and by their hash. */
export function memoryTokens(state: MemoryState, journal: Journal): TokenRepository {
  return {
    async create(token) {
      const stored = copy(token);
      journaledSet(state.tokens, token.id, stored, journal);
      journaledSet(state.tokenByHash, token.token_hash, stored, journal);
    },
    async findByHash(tokenHash) {
      const token = state.tokenByHash.get(tokenHash);
      return token ? copy(token) : null;
    },
    async list(organizationId) {
      return [...state.tokens.values()].filter((t) => t.organization_id === organizationId).map(copy);
    },
    async revokeAllOf(organizationId, user, at) {
      const live = [...state.tokens.values()].filter(
        (t) => t.organization_id === organizationId && t.user === user && t.revoked_at === null,
      );
      for (const token of live) journaledAssign(token, { revoked_at: at }, journal);
      return live.length;
    },
    async revoke(organizationId, id, at) {
      const token = state.tokens.get(id);
      if (!token || token.organization_id !== organizationId) return null;
      // The first revocation's time stays: revoking again changes nothing.
      if (token.revoked_at === null) journaledAssign(token, { revoked_at: at }, journal);
      return copy(token);
    },
  };
}
