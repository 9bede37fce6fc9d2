import type { ReplayStore } from './replay-store.js';

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Most ids kept at once (default 100 000). When full, expired ids go first (swept at most once a
   * second), then the oldest ones.
   * Size it above your peak events per retention window: an id evicted early can be replayed.
   */
  maxEntries?: number;
}

/** A {@link ReplayStore} in this process's memory, with inspection helpers for tests and metrics. */
export interface MemoryReplayStore extends ReplayStore {
  claim(id: string, expiresAt: number, now: number): boolean;
  release(id: string): void;
  /** Ids currently held (expired ones may still count until they are swept). */
  readonly size: number;
  /** Removes every id. */
  clear(): void;
}

/**
 * Replay store for a single receiver process. `claim` is synchronous, hence atomic within the process.
 * Several receiver instances need a shared store instead (see `@latchkey/webhook-verifier/redis`).
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError('maxEntries must be a positive integer');
  }
  // Insertion-ordered, so the first key is the oldest entry. Values are expiries in ms relative to
  // `epoch`: small integers stay unboxed (Smi), so an entry costs no extra heap number.
  const entries = new Map<string, number>();
  let epoch = Number.NaN;
  // No entry expires before this instant, so a sweep earlier than it would find nothing.
  let nextExpiry = Number.POSITIVE_INFINITY;
  // A full sweep is O(size); at most one per second keeps a full cache under a flood O(1) per claim.
  let lastSweep = Number.NEGATIVE_INFINITY;
  let claims = 0;

  function sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [id, expiresAt] of entries) {
      if (expiresAt < now) entries.delete(id);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    nextExpiry = earliest;
  }

  function makeRoom(now: number): void {
    if (now > nextExpiry && now - lastSweep >= 1000) {
      lastSweep = now;
      sweep(now);
    }
    while (entries.size >= maxEntries) {
      entries.delete(entries.keys().next().value as string);
    }
  }

  return {
    claim(id, expiresAtAbs, nowAbs) {
      if (Number.isNaN(epoch)) epoch = nowAbs;
      const expiresAt = expiresAtAbs - epoch;
      const now = nowAbs - epoch;
      const held = entries.get(id);
      if (held !== undefined) {
        if (held >= now) {
          // A re-signed retry carries a later timestamp: hold the id until that copy expires too.
          if (expiresAt > held) entries.set(id, expiresAt);
          return false;
        }
        entries.delete(id);
      } else if (entries.size >= maxEntries) {
        makeRoom(now);
      } else if ((++claims & 63) === 0) {
        // Upkeep while not full, every 64th claim: drop expired entries at the head (the oldest), so a
        // quiet cache shrinks without a full sweep.
        for (const [head, at] of entries) {
          if (at >= now) break;
          entries.delete(head);
        }
      }
      entries.set(id, expiresAt);
      if (expiresAt < nextExpiry) nextExpiry = expiresAt;
      return true;
    },
    release(id) {
      entries.delete(id);
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
      epoch = Number.NaN;
      nextExpiry = Number.POSITIVE_INFINITY;
      lastSweep = Number.NEGATIVE_INFINITY;
    },
  };
}
