import type { KeyIdRepository } from '../ports/key-ids.js';
import type { Journal, MemoryState } from './state.js';

/** Key ids in memory: one map, each call one synchronous step. */
export function memoryKeyIds(state: MemoryState, journal: Journal): KeyIdRepository {
  return {
    async list() {
      return [...state.keyIds]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key_id, check]) => ({ key_id, check }));
    },
    async record(keyId, check) {
      const kept = state.keyIds.get(keyId);
      if (kept) return kept;
      state.keyIds.set(keyId, check);
      if (journal) {
        journal.push(() => {
          if (kept === undefined) state.keyIds.delete(keyId);
          else state.keyIds.set(keyId, kept);
        });
      }
      return check;
    },
    async forget(keyIds) {
      for (const keyId of keyIds) {
        if (!state.keyIds.has(keyId)) continue;
        const kept = state.keyIds.get(keyId)!;
        state.keyIds.delete(keyId);
        journal?.push(() => state.keyIds.set(keyId, kept));
      }
    },
  };
}
