import { ClaimQueue } from './claim-queue.js';
import { fingerprint, IdTable } from './id-table.js';
import type { ReplayStore } from './replay-store.js';

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Most ids kept at once (default 100 000). When full, expired ids go first (swept at most once a
   * second), then the oldest ones. Size it above your peak events per retention window: an id evicted
   * early can be replayed.
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

  const table = new IdTable();
  const queue = new ClaimQueue(table);
  // No entry expires before this instant, so a sweep earlier than it would find nothing.
  let nextExpiry = Number.POSITIVE_INFINITY;
  // A full sweep is O(capacity); at most one per second keeps a full cache under a flood O(1) per claim.
  let lastSweep = Number.NEGATIVE_INFINITY;
  let claims = 0;

  function makeRoom(now: number): void {
    if (now > nextExpiry && now - lastSweep >= 1000) {
      lastSweep = now;
      nextExpiry = table.sweep(now);
    }
    // Expired ones went first; now the oldest live ids.
    queue.evictWhileFull(maxEntries);
  }

  return {
    claim(id, expiresAt, now) {
      const f = fingerprint(id);
      const slot = table.find(id, f);
      if (slot >= 0) {
        const held = table.expiresAt(slot);
        if (held >= now) {
          // A re-signed retry carries a later timestamp: hold the id until that copy expires too.
          if (expiresAt > held) table.hold(slot, expiresAt);
          return false;
        }
        table.remove(slot);
      }
      claims++;
      if (table.count >= maxEntries) makeRoom(now);
      // Upkeep every 64th claim, so a quiet cache shrinks without a full sweep.
      else if ((claims & 63) === 0) queue.dropExpiredHead(now);
      if ((claims & 1023) === 0) queue.compact();
      table.insert(id, f, expiresAt);
      queue.push(id);
      if (expiresAt < nextExpiry) nextExpiry = expiresAt;
      return true;
    },
    release(id) {
      table.drop(id);
    },
    get size() {
      return table.count;
    },
    clear() {
      table.clear();
      queue.clear();
      nextExpiry = Number.POSITIVE_INFINITY;
      lastSweep = Number.NEGATIVE_INFINITY;
    },
  };
}
