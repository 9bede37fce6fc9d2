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

const EMPTY = 0;
const DELETED = -1;
const MIN_CAPACITY = 1024;

/** `size` empty slots, as a packed array (`new Array(size)` turns into a slow dictionary when large). */
function emptySlots(size: number): (string | undefined)[] {
  const slots: (string | undefined)[] = [];
  for (let i = 0; i < size; i++) slots.push(undefined);
  return slots;
}

/** FNV-1a over UTF-16 code units, folded to an odd positive int so it is never EMPTY or DELETED. */
function fingerprint(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h & 0x7ffffffe) | 1;
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

  // An open-addressing table (linear probing) rather than a Map<string, number>: a claim is nearly
  // always for an id that is not there, and a Map lookup then misses the CPU cache several times
  // (bucket, entry, the candidate key strings) once the cache holds tens of thousands of ids. Here
  // slot i keeps its fingerprint and expiry side by side in `meta` (one cache line for the probe),
  // and the id string is only read when fingerprints match. Ids come from signed bodies, so nobody
  // can pick colliding ones.
  let capacity = MIN_CAPACITY;
  let mask = capacity - 1;
  let meta = new Float64Array(capacity * 2); // [2i] fingerprint or EMPTY/DELETED, [2i + 1] expiresAt
  let ids = emptySlots(capacity);
  let count = 0;
  let deleted = 0;

  // Ids in claim order, oldest at `head`, for eviction when full. Released ids stay here until popped
  // (skipped then); an id claimed again after a release is evicted by its first position, slightly
  // early, which is harmless.
  let queue: string[] = [];
  let head = 0;
  // No entry expires before this instant, so a sweep earlier than it would find nothing.
  let nextExpiry = Number.POSITIVE_INFINITY;
  // A full sweep is O(capacity); at most one per second keeps a full cache under a flood O(1) per claim.
  let lastSweep = Number.NEGATIVE_INFINITY;
  let claims = 0;

  function find(id: string, f: number): number {
    for (let i = f & mask; ; i = (i + 1) & mask) {
      const g = meta[i * 2]!;
      if (g === EMPTY) return -1;
      if (g === f && ids[i] === id) return i;
    }
  }

  function remove(slot: number): void {
    meta[slot * 2] = DELETED;
    ids[slot] = undefined;
    count--;
    deleted++;
  }

  function resize(size: number): void {
    const oldMeta = meta;
    const oldIds = ids;
    capacity = size;
    mask = size - 1;
    meta = new Float64Array(size * 2);
    ids = emptySlots(size);
    deleted = 0;
    for (let slot = 0; slot < oldIds.length; slot++) {
      const f = oldMeta[slot * 2]!;
      if (f <= 0) continue;
      let i = f & mask;
      while (meta[i * 2] !== EMPTY) i = (i + 1) & mask;
      meta[i * 2] = f;
      meta[i * 2 + 1] = oldMeta[slot * 2 + 1]!;
      ids[i] = oldIds[slot];
    }
  }

  function insert(id: string, f: number, expiresAt: number): void {
    // Keep live + deleted slots at most half the table, so probes stay short.
    if ((count + deleted + 1) * 2 > capacity) resize((count + 1) * 4 > capacity ? capacity * 2 : capacity);
    let i = f & mask;
    while (meta[i * 2]! > 0) i = (i + 1) & mask;
    if (meta[i * 2] === DELETED) deleted--;
    meta[i * 2] = f;
    meta[i * 2 + 1] = expiresAt;
    ids[i] = id;
    count++;
  }

  function compactQueue(): void {
    if (queue.length - head > 2 * count + 1024) {
      // Mostly released ids: keep each live id once, at its latest claim.
      const seen = new Set<string>();
      const kept: string[] = [];
      for (let k = queue.length - 1; k >= head; k--) {
        const id = queue[k]!;
        if (!seen.has(id) && find(id, fingerprint(id)) >= 0) kept.push(id);
        seen.add(id);
      }
      queue = kept.reverse();
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
    } else {
      return;
    }
    head = 0;
  }

  function sweep(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < capacity; slot++) {
      if (meta[slot * 2]! <= 0) continue;
      const expiresAt = meta[slot * 2 + 1]!;
      if (expiresAt < now) remove(slot);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    nextExpiry = earliest;
  }

  /** Drops ids from the front while they are gone or expired; stops at the first live one. */
  function dropExpiredHead(now: number): void {
    while (head < queue.length) {
      const slot = find(queue[head]!, fingerprint(queue[head]!));
      if (slot >= 0) {
        if (meta[slot * 2 + 1]! >= now) return;
        remove(slot);
      }
      head++;
    }
  }

  function makeRoom(now: number): void {
    if (now > nextExpiry && now - lastSweep >= 1000) {
      lastSweep = now;
      sweep(now);
    }
    // Expired ones went first; now the oldest live ids.
    while (count >= maxEntries && head < queue.length) {
      const id = queue[head++]!;
      const slot = find(id, fingerprint(id));
      if (slot >= 0) remove(slot);
    }
  }

  return {
    claim(id, expiresAt, now) {
      const f = fingerprint(id);
      const slot = find(id, f);
      if (slot >= 0) {
        const held = meta[slot * 2 + 1]!;
        if (held >= now) {
          // A re-signed retry carries a later timestamp: hold the id until that copy expires too.
          if (expiresAt > held) meta[slot * 2 + 1] = expiresAt;
          return false;
        }
        remove(slot);
      }
      claims++;
      if (count >= maxEntries) makeRoom(now);
      // Upkeep every 64th claim, so a quiet cache shrinks without a full sweep.
      else if ((claims & 63) === 0) dropExpiredHead(now);
      if ((claims & 1023) === 0) compactQueue();
      insert(id, f, expiresAt);
      queue.push(id);
      if (expiresAt < nextExpiry) nextExpiry = expiresAt;
      return true;
    },
    release(id) {
      const slot = find(id, fingerprint(id));
      if (slot >= 0) remove(slot);
    },
    get size() {
      return count;
    },
    clear() {
      capacity = MIN_CAPACITY;
      mask = capacity - 1;
      meta = new Float64Array(capacity * 2);
      ids = emptySlots(capacity);
      count = 0;
      deleted = 0;
      queue = [];
      head = 0;
      nextExpiry = Number.POSITIVE_INFINITY;
      lastSweep = Number.NEGATIVE_INFINITY;
    },
  };
}
