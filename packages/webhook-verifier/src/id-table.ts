/**
 * The memory replay store's table of ids, each with the instant it expires.
 *
 * An open-addressing table (linear probing) rather than a Map<string, number>: a claim is nearly
 * always for an id that is not there, and a Map lookup then misses the CPU cache several times
 * (bucket, entry, the candidate key strings) once the cache holds tens of thousands of ids. Here
 * slot i keeps its fingerprint and expiry side by side in `meta` (one cache line for the probe),
 * and the id string is only read when fingerprints match. Ids come from signed bodies, so nobody
 * can pick colliding ones.
 */

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
export function fingerprint(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h & 0x7ffffffe) | 1;
}

/** Ids and their expiry, addressed by slot; `f` is always the id's {@link fingerprint}. */
export class IdTable {
  private capacity = MIN_CAPACITY;
  private mask = MIN_CAPACITY - 1;
  /** [2i] fingerprint or EMPTY/DELETED, [2i + 1] expiresAt. */
  private meta = new Float64Array(MIN_CAPACITY * 2);
  private ids = emptySlots(MIN_CAPACITY);
  private deleted = 0;
  /** Ids held (expired ones count until they are removed). */
  count = 0;

  /** The slot of `id`, or -1. */
  find(id: string, f: number): number {
    const { meta, ids, mask } = this;
    for (let i = f & mask; ; i = (i + 1) & mask) {
      const g = meta[i * 2]!;
      if (g === EMPTY) return -1;
      if (g === f && ids[i] === id) return i;
    }
  }

  /** The instant the id in `slot` expires. */
  expiresAt(slot: number): number {
    return this.meta[slot * 2 + 1]!;
  }

  /** Moves the expiry of the id in `slot`. */
  hold(slot: number, expiresAt: number): void {
    this.meta[slot * 2 + 1] = expiresAt;
  }

  /** Empties `slot`. */
  remove(slot: number): void {
    this.meta[slot * 2] = DELETED;
    this.ids[slot] = undefined;
    this.count--;
    this.deleted++;
  }

  /** Removes `id` if it is there. */
  drop(id: string): void {
    const slot = this.find(id, fingerprint(id));
    if (slot >= 0) this.remove(slot);
  }

  /** Adds an id that is not there, growing the table when needed. */
  insert(id: string, f: number, expiresAt: number): void {
    // Keep live + deleted slots at most half the table, so probes stay short.
    if ((this.count + this.deleted + 1) * 2 > this.capacity) {
      this.resize((this.count + 1) * 4 > this.capacity ? this.capacity * 2 : this.capacity);
    }
    const { meta, mask } = this;
    let i = f & mask;
    while (meta[i * 2]! > 0) i = (i + 1) & mask;
    if (meta[i * 2] === DELETED) this.deleted--;
    meta[i * 2] = f;
    meta[i * 2 + 1] = expiresAt;
    this.ids[i] = id;
    this.count++;
  }

  /** Removes every id expired before `now`; returns the earliest expiry left (Infinity if none). */
  sweep(now: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < this.capacity; slot++) {
      if (this.meta[slot * 2]! <= 0) continue;
      const expiresAt = this.meta[slot * 2 + 1]!;
      if (expiresAt < now) this.remove(slot);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
    return earliest;
  }

  /** Removes every id and shrinks back to the smallest table. */
  clear(): void {
    this.allocate(MIN_CAPACITY);
    this.count = 0;
  }

  /** Empty slots of `size` (a power of two); the ids held must be put back by the caller. */
  private allocate(size: number): void {
    this.capacity = size;
    this.mask = size - 1;
    this.meta = new Float64Array(size * 2);
    this.ids = emptySlots(size);
    this.deleted = 0;
  }

  private resize(size: number): void {
    const { meta, ids } = this;
    this.allocate(size);
    for (let slot = 0; slot < ids.length; slot++) {
      const f = meta[slot * 2]!;
      if (f <= 0) continue;
      let i = f & this.mask;
      while (this.meta[i * 2] !== EMPTY) i = (i + 1) & this.mask;
      this.meta[i * 2] = f;
      this.meta[i * 2 + 1] = meta[slot * 2 + 1]!;
      this.ids[i] = ids[slot];
    }
  }
}
