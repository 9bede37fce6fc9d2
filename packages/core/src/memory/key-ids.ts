import type { KeyIdRepository } from '../store/ports/key-ids.js';
import { journaledDelete, journaledSet } from './journaled.js';
import { byCodeUnits } from './order.js';
import type { Journal, MemoryState } from './state.js';

/** Key ids in memory: one map, each call one synchronous step. */
export function memoryKeyIds(state: MemoryState, journal: Journal): KeyIdRepository {
  return {
    async list() {
      return [...state.keyIds]
        .sort(([a], [b]) => byCodeUnits(a, b))
        .map(([key_id, check]) => ({ key_id, check }));
    },
    async record(keyId, check) {
      const kept = state.keyIds.get(keyId);
      if (kept) return kept;
      journaledSet(state.keyIds, keyId, check, journal);
      return check;
    },
    async forget(keyIds) {
      for (const keyId of keyIds) journaledDelete(state.keyIds, keyId, journal);
    },
  };
}
