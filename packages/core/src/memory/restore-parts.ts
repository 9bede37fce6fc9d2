/** A staged restore's parts in memory: stored within the session's size limit, read back in order. */
import type { RestoreRepository } from '../store/ports/restores.js';
import { journaledSet } from './journaled.js';
import type { Journal, MemoryState } from './state.js';

/** The parts of staged restores in memory; each call one synchronous step. */
export function memoryRestoreParts(
  state: MemoryState,
  journal: Journal,
): Pick<RestoreRepository, 'putPart' | 'partStats' | 'parts' | 'dropParts'> {
  const { parts: bySession } = state.restores;
  return {
    async putPart(sessionId, index, data, bytes, maxBytes) {
      const parts = bySession.get(sessionId);
      if (!parts) return null;
      let total = bytes;
      for (const [other, part] of parts) if (other !== index) total += part.bytes;
      if (total > maxBytes) return total;
      journaledSet(parts, index, { data, bytes }, journal);
      return total;
    },
    async partStats(sessionId) {
      const parts = bySession.get(sessionId) ?? new Map<number, unknown>();
      return { count: parts.size, maxIndex: parts.size === 0 ? -1 : Math.max(...parts.keys()) };
    },
    async *parts(sessionId) {
      const parts = bySession.get(sessionId) ?? new Map<number, { data: string }>();
      for (const index of [...parts.keys()].sort((a, b) => a - b)) yield parts.get(index)!.data;
    },
    async dropParts(sessionId) {
      if (bySession.has(sessionId)) journaledSet(bySession, sessionId, new Map(), journal);
    },
  };
}
