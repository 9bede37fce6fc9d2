import { expect, it } from 'vitest';
import type { ReplayStore } from '../src/index.js';

/**
 * The contract every ReplayStore must meet, run against each implementation (memory, Redis, ...).
 * `makeStore` must return a store that shares nothing with earlier ones (use a fresh key prefix).
 */
export function replayStoreConformance(makeStore: () => ReplayStore | Promise<ReplayStore>): void {
  const now = Date.now();
  const minute = 60_000;

  it('claims an id once', async () => {
    const store = await makeStore();
    expect(await store.claim('evt_a', now + minute, now)).toBe(true);
    expect(await store.claim('evt_a', now + minute, now)).toBe(false);
    expect(await store.claim('evt_b', now + minute, now)).toBe(true);
  });

  it('treats ids as opaque strings', async () => {
    const store = await makeStore();
    for (const id of ['évt:1', 'evt 1', 'evt*', '{evt}', 'a'.repeat(1000)]) {
      expect(await store.claim(id, now + minute, now), id).toBe(true);
      expect(await store.claim(id, now + minute, now), id).toBe(false);
    }
  });

  it('forgets a released id', async () => {
    const store = await makeStore();
    await store.claim('evt_r', now + minute, now);
    await store.release('evt_r');
    expect(await store.claim('evt_r', now + minute, now)).toBe(true);
    await store.release('evt_never_claimed');
  });

  it('gives exactly one of many concurrent claims of one id', async () => {
    const store = await makeStore();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => store.claim('evt_c', now + minute, now)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('holds an id until its expiry and then lets it go', async () => {
    const store = await makeStore();
    // Relative TTLs, so this works with stores that expire on their own clock (Redis).
    const t0 = Date.now();
    expect(await store.claim('evt_t', t0 + 300, t0)).toBe(true);
    expect(await store.claim('evt_t', t0 + 300, Date.now())).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 450));
    const t1 = Date.now();
    expect(await store.claim('evt_t', t1 + minute, t1)).toBe(true);
  });

  it('lengthens the hold when a replay brings a later expiry, never shortens it', async () => {
    const store = await makeStore();
    const t0 = Date.now();
    expect(await store.claim('evt_x', t0 + 300, t0)).toBe(true);
    expect(await store.claim('evt_x', t0 + 1200, t0)).toBe(false);
    expect(await store.claim('evt_x', t0 + 1, t0)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const t1 = Date.now();
    // Still held past the first expiry (t0 + 300), thanks to the second claim.
    expect(await store.claim('evt_x', t1 + 1, t1)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const t2 = Date.now();
    expect(await store.claim('evt_x', t2 + minute, t2)).toBe(true);
  });
}
