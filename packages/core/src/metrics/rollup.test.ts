import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rollup } from '../model/rollup.js';
import { percentiles } from './latency-histogram.js';
import {
  addAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  latencyBucketKey,
  METRICS_WINDOWS,
  type MetricsWindow,
  MINUTE_MS,
  mergeRollup,
  subtractRollup,
  successRate,
  toFigures,
  windowCover,
  windowStart,
} from './rollup.js';

interface Attempt {
  at: number;
  ok: boolean;
  latencyMs: number;
}

/** Rolls attempts up by minute and by hour, as the stores do with each attempt. */
function rollUp(attempts: Attempt[]) {
  const minutes = new Map<number, Rollup>();
  const hours = new Map<number, Rollup>();
  for (const attempt of attempts) {
    for (const [rows, unit] of [
      [minutes, MINUTE_MS],
      [hours, HOUR_MS],
    ] as const) {
      const start = floorTo(attempt.at, unit);
      const rollup = rows.get(start) ?? emptyRollup();
      addAttempt(rollup, attempt);
      rows.set(start, rollup);
    }
  }
  return { minutes, hours };
}

/**
 * The window read the way the stores read it: the running total (sum of every attempt before a
 * minute boundary) at the current minute minus the one at the window's start, plus the current
 * minute's rollup: three rows, however long the window.
 */
function readWindow(rows: ReturnType<typeof rollUp>, now: number, window: MetricsWindow) {
  const cover = windowCover(now, window);
  const total = emptyRollup();
  let rowsRead = 0;
  if (cover.totals.to > cover.totals.from) {
    const runningTotal = (boundary: number) => {
      const sum = emptyRollup();
      for (const [start, rollup] of rows.minutes) if (start < boundary) mergeRollup(sum, rollup);
      return sum;
    };
    mergeRollup(total, runningTotal(cover.totals.to));
    subtractRollup(total, runningTotal(cover.totals.from));
    rowsRead += 2;
  }
  for (const [start, rollup] of rows.minutes) {
    if (cover.minutes.some((range) => start >= range.from && start < range.to)) {
      mergeRollup(total, rollup);
      rowsRead++;
    }
  }
  return { total, rowsRead };
}

function exactPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

const NOW = Date.parse('2026-11-24T15:37:42.123Z');

describe('metrics rollups', () => {
  it('equal a brute-force count over the raw attempts for every window (property)', () => {
    const attempt = fc.record({
      ageMs: fc.oneof(
        fc.integer({ min: 0, max: 40 * 24 * HOUR_MS }),
        // Around each window's edge, where the minute rule matters.
        ...Object.values(METRICS_WINDOWS).map((w) =>
          fc.integer({ min: w - 3 * MINUTE_MS, max: w + 3 * MINUTE_MS }),
        ),
      ),
      ok: fc.boolean(),
      latencyMs: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.double({ min: 0, max: 20_000, noNaN: true })),
    });
    fc.assert(
      fc.property(
        fc.array(attempt, { maxLength: 300 }),
        fc.integer({ min: 0, max: HOUR_MS }),
        (raw, shift) => {
          const now = NOW + shift;
          const attempts = raw.map((a) => ({ at: now - a.ageMs, ok: a.ok, latencyMs: a.latencyMs }));
          const rows = rollUp(attempts);
          for (const window of Object.keys(METRICS_WINDOWS) as MetricsWindow[]) {
            const { total } = readWindow(rows, now, window);
            const inWindow = attempts.filter((a) => a.at >= windowStart(now, window));
            const latencies = inWindow.map((a) => Math.max(0, Math.round(a.latencyMs)));
            const figures = toFigures(total);
            expect(figures.attempted).toBe(inWindow.length);
            expect(figures.succeeded).toBe(inWindow.filter((a) => a.ok).length);
            expect(figures.failed).toBe(inWindow.filter((a) => !a.ok).length);
            expect(figures.success_rate).toBe(
              inWindow.length === 0 ? 0 : Number(((100 * figures.succeeded) / inWindow.length).toFixed(2)),
            );
            for (const key of Object.keys(
              figures.latency_buckets,
            ) as (keyof typeof figures.latency_buckets)[]) {
              expect(figures.latency_buckets[key]).toBe(
                latencies.filter((ms) => latencyBucketKey(ms) === key).length,
              );
            }
            const got = [figures.latency.p50_ms, figures.latency.p95_ms, figures.latency.p99_ms];
            [50, 95, 99].forEach((p, i) => {
              const want = exactPercentile(latencies, p);
              expect(Math.abs(got[i]! - want)).toBeLessThanOrEqual(Math.max(want * 0.01, 0.5));
            });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads a bounded number of rows for 30 days however many attempts there were', () => {
    const attempts: Attempt[] = [];
    for (let at = NOW - 31 * 24 * HOUR_MS; at <= NOW; at += 20_000)
      attempts.push({ at, ok: true, latencyMs: 50 });
    const { rowsRead, total } = readWindow(rollUp(attempts), NOW, '30d');
    expect(total.attempted).toBe(attempts.filter((a) => a.at >= windowStart(NOW, '30d')).length);
    expect(rowsRead).toBeLessThanOrEqual(3);
  });

  it('covers the current minute and the whole minutes before it', () => {
    const start = windowStart(NOW, '24h');
    expect(start % MINUTE_MS).toBe(0);
    expect(NOW - start).toBeGreaterThan(24 * HOUR_MS - MINUTE_MS);
    expect(NOW - start).toBeLessThanOrEqual(24 * HOUR_MS);
  });

  it('puts latencies in inclusive integer-millisecond buckets', () => {
    expect([0, 100, 101, 300, 301, 1000, 1001, 3000, 3001].map(latencyBucketKey)).toEqual([
      '0_100_ms',
      '0_100_ms',
      '101_300_ms',
      '101_300_ms',
      '301_1000_ms',
      '301_1000_ms',
      '1001_3000_ms',
      '1001_3000_ms',
      '3001_plus_ms',
    ]);
  });

  it('rounds the success rate to two decimals, 0 with no attempts', () => {
    expect([
      successRate(2, 3),
      successRate(1, 3),
      successRate(0, 0),
      successRate(5, 5),
      successRate(1, 8),
    ]).toEqual([66.67, 33.33, 0, 100, 12.5]);
  });

  it('reports zeros for an empty rollup', () => {
    expect(toFigures(emptyRollup()).latency).toEqual({ p50_ms: 0, p95_ms: 0, p99_ms: 0 });
    expect(percentiles({}, [50])).toEqual([0]);
  });
});
