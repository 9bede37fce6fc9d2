import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryReplayStore } from '../src/index.js';
import { replayStoreConformance } from './replay-store-suite.js';

describe('memory replay store: conformance', () => {
  replayStoreConformance(() => createMemoryReplayStore());
});

describe('memory replay store', () => {
  const T = 1_795_341_600_000;

  it('never holds more than maxEntries', () => {
    const store = createMemoryReplayStore({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) expect(store.claim(`evt_${i}`, T + 600_000, T)).toBe(true);
    expect(store.size).toBe(100);
  });

  it('when full, evicts expired ids before live ones, then the oldest', () => {
    const store = createMemoryReplayStore({ maxEntries: 3 });
    store.claim('old_live', T + 10_000, T);
    store.claim('expiring', T + 1_000, T);
    store.claim('new_live', T + 10_000, T);
    // At T + 2 s, "expiring" has expired although it is not the oldest: it goes first.
    expect(store.claim('fourth', T + 10_000, T + 2_000)).toBe(true);
    expect(store.size).toBe(3);
    expect(store.claim('old_live', T + 10_000, T + 2_000)).toBe(false);
    expect(store.claim('new_live', T + 10_000, T + 2_000)).toBe(false);
    // Nothing expired now: the oldest ("old_live") makes room.
    expect(store.claim('fifth', T + 10_000, T + 2_000)).toBe(true);
    expect(store.claim('new_live', T + 10_000, T + 2_000)).toBe(false);
    expect(store.claim('old_live', T + 10_000, T + 2_000)).toBe(true);
  });

  it('holds an id while now <= expiresAt', () => {
    const store = createMemoryReplayStore();
    store.claim('evt', T + 1_000, T);
    expect(store.claim('evt', T + 5_000, T + 1_000)).toBe(false);
    // The replay lengthened the hold to T + 5 s.
    expect(store.claim('evt', T + 9_000, T + 5_000)).toBe(false);
    expect(store.claim('evt', T + 20_000, T + 9_001)).toBe(true);
  });

  it('drops expired ids as it goes, without growing while nothing is live', () => {
    const store = createMemoryReplayStore({ maxEntries: 1_000_000 });
    for (let i = 0; i < 100_000; i++) store.claim(`evt_${i}`, T + i + 10, T + i);
    // Every id lives 10 ms; only the last few are still live, the rest went with the upkeep.
    expect(store.size).toBeLessThan(200);
  });

  it('stays fast when full under a flood of fresh ids', () => {
    const store = createMemoryReplayStore({ maxEntries: 50_000 });
    const start = performance.now();
    for (let i = 0; i < 300_000; i++) store.claim(`evt_${i}`, T + 600_000 + (i % 7), T + (i >> 4));
    expect(store.size).toBe(50_000);
    // A full O(n) sweep on every claim would take minutes; bounded sweeps take well under one.
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it('keeps evicting the oldest correctly through heavy churn of releases and re-claims', () => {
    const store = createMemoryReplayStore({ maxEntries: 10 });
    for (let round = 0; round < 5_000; round++) {
      store.claim('churn', T + 600_000, T);
      store.release('churn');
    }
    for (let i = 0; i < 10; i++) store.claim(`evt_${i}`, T + 600_000, T);
    expect(store.size).toBe(10);
    for (let i = 10; i < 5_000; i++) store.claim(`evt_${i}`, T + 600_000, T);
    expect(store.size).toBe(10);
    // The ten newest survive, in order; the older ones were evicted.
    for (let i = 4_990; i < 5_000; i++) expect(store.claim(`evt_${i}`, T + 600_000, T)).toBe(false);
    expect(store.claim('evt_4989', T + 600_000, T)).toBe(true);
  });

  it('answers like a plain Map model for any sequence of claims, releases and clock steps', () => {
    type Step = { kind: 'claim'; id: number; ttl: number; advance: number } | { kind: 'release'; id: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('claim' as const),
          id: fc.nat(2000),
          ttl: fc.nat(5000),
          advance: fc.nat(50),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), id: fc.nat(2000) }) },
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1000, maxLength: 3000 }), (steps) => {
        const store = createMemoryReplayStore({ maxEntries: 1_000_000 });
        const model = new Map<string, number>();
        let now = T;
        for (const s of steps) {
          const id = `evt_${s.id}`;
          if (s.kind === 'release') {
            store.release(id);
            model.delete(id);
            continue;
          }
          now += s.advance;
          const held = model.get(id);
          const expected = held === undefined || held < now;
          if (expected) model.set(id, now + s.ttl);
          else if (now + s.ttl > held!) model.set(id, now + s.ttl);
          expect(store.claim(id, now + s.ttl, now)).toBe(expected);
        }
        // Every id the model holds is still held by the store.
        for (const [id, expiresAt] of model) {
          if (expiresAt >= now) expect(store.claim(id, now + 1, now), id).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps every id through growth from a small table to many thousands, with releases in between', () => {
    const store = createMemoryReplayStore({ maxEntries: 1_000_000 });
    for (let i = 0; i < 60_000; i++) {
      expect(store.claim(`evt_${i}`, T + 600_000, T)).toBe(true);
      if (i % 3 === 0) store.release(`evt_${i}`);
    }
    expect(store.size).toBe(40_000);
    for (let i = 0; i < 60_000; i++) expect(store.claim(`evt_${i}`, T + 600_000, T)).toBe(i % 3 === 0);
  });

  it('tells apart two ids with the same fingerprint', () => {
    // These two collide in the store's 31-bit FNV-1a fingerprint (found by search).
    const store = createMemoryReplayStore();
    expect(store.claim('evt_27699', T + 1_000, T)).toBe(true);
    expect(store.claim('evt_310217', T + 1_000, T)).toBe(true);
    expect(store.claim('evt_27699', T + 1_000, T)).toBe(false);
    expect(store.claim('evt_310217', T + 1_000, T)).toBe(false);
    store.release('evt_27699');
    expect(store.claim('evt_310217', T + 1_000, T)).toBe(false);
    expect(store.claim('evt_27699', T + 1_000, T)).toBe(true);
  });

  it('clear() empties it', () => {
    const store = createMemoryReplayStore();
    store.claim('evt', T + 1_000, T);
    store.clear();
    expect(store.size).toBe(0);
    expect(store.claim('evt', T + 1_000, T)).toBe(true);
  });

  it('refuses a non-positive bound', () => {
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createMemoryReplayStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
