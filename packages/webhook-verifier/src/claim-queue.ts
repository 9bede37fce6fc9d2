import { fingerprint, type IdTable } from './id-table.js';

/**
 * The memory replay store's ids in claim order, oldest at the head, for eviction when full. Released
 * ids stay here until popped (skipped then); an id claimed again after a release is evicted by its
 * first position, slightly early, which is harmless.
 */
export class ClaimQueue {
  private queue: string[] = [];
  private head = 0;

  constructor(private readonly table: IdTable) {}

  /** Appends a claimed id. */
  push(id: string): void {
    this.queue.push(id);
  }

  /** Evicts the oldest ids from the table while it holds `maxEntries` or more. */
  evictWhileFull(maxEntries: number): void {
    while (this.table.count >= maxEntries && this.head < this.queue.length) {
      this.table.drop(this.queue[this.head++]!);
    }
  }

  /** Drops ids from the front while they are gone or expired; stops at the first live one. */
  dropExpiredHead(now: number): void {
    const { queue, table } = this;
    while (this.head < queue.length) {
      const id = queue[this.head]!;
      const slot = table.find(id, fingerprint(id));
      if (slot >= 0) {
        if (table.expiresAt(slot) >= now) return;
        table.remove(slot);
      }
      this.head++;
    }
  }

  /** Shrinks the queue when it is mostly released or already popped ids. */
  compact(): void {
    const { queue, head, table } = this;
    if (queue.length - head > 2 * table.count + 1024) {
      // Mostly released ids: keep each live id once, at its latest claim.
      const seen = new Set<string>();
      const kept: string[] = [];
      for (let k = queue.length - 1; k >= head; k--) {
        const id = queue[k]!;
        if (!seen.has(id) && table.find(id, fingerprint(id)) >= 0) kept.push(id);
        seen.add(id);
      }
      this.queue = kept.reverse();
    } else if (head > 1024 && head * 2 > queue.length) {
      this.queue = queue.slice(head);
    } else {
      return;
    }
    this.head = 0;
  }

  /** Forgets every id. */
  clear(): void {
    this.queue = [];
    this.head = 0;
  }
}
