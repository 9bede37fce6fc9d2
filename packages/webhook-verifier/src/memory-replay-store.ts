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
  // id -> expiry in ms relative to `epoch`: small integers stay unboxed (Smi), no heap number per id.
  const entries = new Map<string, number>();
  let epoch = Number.NaN;
  // Ids in claim order, oldest at `head`. A Map iterator would do, but it rescans the holes deleted
  // entries leave at the front of V8's table, which made eviction O(n) under churn. Released ids stay
  // here until popped (skipped then); an id claimed again after a release is evicted by its first
  // position, slightly early, which is harmless.
  let queue: string[] = [];
  let head = 0;
  // No entry expires before this instant, so a sweep earlier than it would find nothing.
  let nextExpiry = Number.POSITIVE_INFINITY;
  // A full sweep is O(size); at most one per second keeps a full cache under a flood O(1) per claim.
  let lastSweep = Number.NEGATIVE_INFINITY;
  let claims = 0;

  function compact(): void {
    if (queue.length - head > 2 * entries.size + 1024) queue = [...entries.keys()];
    else if (head > 1024 && head * 2 > queue.length) queue = queue.slice(head);
    else return;
    head = 0;
  }

  function sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const [id, expiresAt] of entries) {
      if (expiresAt < now) entries.delete(id);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    nextExpiry = earliest;
  }

  /** Drops ids from the front while they are gone or expired; stops at the first live one. */
  function dropExpiredHead(now: number): void {
    while (head < queue.length) {
      const id = queue[head]!;
      const expiresAt = entries.get(id);
      if (expiresAt !== undefined && expiresAt >= now) return;
      if (expiresAt !== undefined) entries.delete(id);
      head++;
    }
  }

  function makeRoom(now: number): void {
    if (now > nextExpiry && now - lastSweep >= 1000) {
      lastSweep = now;
      sweep(now);
    }
    // Expired ones went first; now the oldest live ids.
    while (entries.size >= maxEntries && head < queue.length) entries.delete(queue[head++]!);
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
      }
      claims++;
      if (entries.size >= maxEntries) makeRoom(now);
      // Upkeep every 64th claim, so a quiet cache shrinks without a full sweep.
      else if ((claims & 63) === 0) dropExpiredHead(now);
      if ((claims & 1023) === 0) compact();
      entries.set(id, expiresAt);
      queue.push(id);
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
      queue = [];
      head = 0;
      epoch = Number.NaN;
      nextExpiry = Number.POSITIVE_INFINITY;
      lastSweep = Number.NEGATIVE_INFINITY;
    },
  };
}
