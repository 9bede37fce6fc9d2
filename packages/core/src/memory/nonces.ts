import type { NonceRepository } from '../store/ports/nonces.js';
import type { Journal, MemoryState } from './state.js';

/** Drops expired nonces; when still full of live ones, forgets the oldest rather than grow. */
function pruneNonces(state: MemoryState, now: number): void {
  for (const [key, expiresAt] of state.nonces) {
    if (expiresAt <= now) state.nonces.delete(key);
  }
  while (state.nonces.size >= state.maxNonces) {
    const oldest = state.nonces.keys().next().value;
    if (oldest === undefined) break;
    state.nonces.delete(oldest);
  }
}

/** `consume` of the port, in one synchronous step (also what `applyPush` does with its nonce). */
export function consumeNonce(
  state: MemoryState,
  journal: Journal,
  scope: string,
  nonce: string,
  expiresAt: number,
  now: number,
): boolean {
  const key = `${scope}/${nonce}`;
  const seen = state.nonces.get(key);
  if (seen !== undefined && seen > now) return false;
  if (state.nonces.size >= state.maxNonces) pruneNonces(state, now);
  state.nonces.set(key, expiresAt);
  if (journal) {
    journal.push(() => {
      if (seen === undefined) state.nonces.delete(key);
      else state.nonces.set(key, seen);
    });
  }
  return true;
}

/** Push nonces in memory, bounded by `maxNonces`. */
export function memoryNonces(state: MemoryState, journal: Journal): NonceRepository {
  return {
    async consume(scope, nonce, expiresAt, now) {
      return consumeNonce(state, journal, scope, nonce, expiresAt, now);
    },
  };
}
