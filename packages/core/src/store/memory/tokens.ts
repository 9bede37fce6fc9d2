import type { TokenRepository } from '../ports/tokens.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** API tokens in memory. */
export function memoryTokens(state: MemoryState, journal: Journal): TokenRepository {
  return {
    async create(token) {
      const stored = copy(token);
      state.tokens.set(token.id, stored);
      state.tokenByHash.set(token.token_hash, stored);
      journal?.push(() => {
        state.tokens.delete(token.id);
        state.tokenByHash.delete(token.token_hash);
      });
    },
    async findByHash(tokenHash) {
      const token = state.tokenByHash.get(tokenHash);
      return token ? copy(token) : null;
    },
    async list(organizationId) {
      return [...state.tokens.values()].filter((t) => t.organization_id === organizationId).map(copy);
    },
    async revokeAllOf(organizationId, user, at) {
      let revoked = 0;
      for (const token of state.tokens.values()) {
        if (token.organization_id !== organizationId || token.user !== user || token.revoked_at !== null)
          continue;
        token.revoked_at = at;
        journal?.push(() => {
          token.revoked_at = null;
        });
        revoked++;
      }
      return revoked;
    },
    async revoke(organizationId, id, at) {
      const token = state.tokens.get(id);
      if (!token || token.organization_id !== organizationId) return null;
      if (token.revoked_at === null) {
        token.revoked_at = at;
        journal?.push(() => {
          token.revoked_at = null;
        });
      }
      return copy(token);
    },
  };
}
