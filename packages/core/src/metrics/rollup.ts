/**
 * Delivery metrics that cost the same for ten attempts or ten million: each attempt is added to a
 * rollup of its webhook's minute and to one of its hour (counts, the five latency buckets of the
 * metrics payload and a fine latency histogram). A window is read as the running total of its
 * webhook's attempts before the current minute (the sum of every attempt before a minute boundary,
 * kept by the store) minus the running total before the window's start, plus the current minute's
 * rollup: three rows per webhook, whatever the window and the traffic.
 *
 * The window rule: a window of length W read at time `now` covers the minute of `now` and the
 * W/1min − 1 whole minutes before it, so its counts equal, exactly, the attempts made at or after
 * {@link windowStart}.
 */

import { LATENCY_BUCKET_KEYS, type LatencyBucketKey, type Rollup } from '../model/rollup.js';
import { addLatency, mergeHistogram, percentiles, subtractHistogram } from './latency-histogram.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** The units rollups are kept in, and their lengths. */
export const ROLLUP_UNITS = { minute: MINUTE_MS, hour: HOUR_MS } as const;
/** A unit rollups are kept in. */
export type RollupUnit = keyof typeof ROLLUP_UNITS;

/** The metrics windows of the API and their lengths. */
export const METRICS_WINDOWS = {
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
} as const;
export type MetricsWindow = keyof typeof METRICS_WINDOWS;

/** The `latency_buckets` key of a latency in whole milliseconds. */
export function latencyBucketKey(ms: number): LatencyBucketKey {
  if (ms <= 100) return '0_100_ms';
  if (ms <= 300) return '101_300_ms';
  if (ms <= 1_000) return '301_1000_ms';
  if (ms <= 3_000) return '1001_3000_ms';
  return '3001_plus_ms';
}

/** A copy of a rollup (its counts are plain numbers: a copy per field is a deep one). */
export function copyRollup(rollup: Rollup): Rollup {
  return {
    attempted: rollup.attempted,
    succeeded: rollup.succeeded,
    failed: rollup.failed,
    buckets: { ...rollup.buckets },
    histogram: { ...rollup.histogram },
  };
}

export function emptyRollup(): Rollup {
  return {
    attempted: 0,
    succeeded: 0,
    failed: 0,
    buckets: { '0_100_ms': 0, '101_300_ms': 0, '301_1000_ms': 0, '1001_3000_ms': 0, '3001_plus_ms': 0 },
    histogram: {},
  };
}

/** Latency as recorded: whole milliseconds, rounded, never negative. */
export const recordedLatency = (ms: number): number => Math.max(0, Math.round(ms));

/** Adds one attempt to `rollup`, in place. */
export function addAttempt(rollup: Rollup, attempt: { ok: boolean; latencyMs: number }): void {
  const ms = recordedLatency(attempt.latencyMs);
  rollup.attempted++;
  if (attempt.ok) rollup.succeeded++;
  else rollup.failed++;
  rollup.buckets[latencyBucketKey(ms)]++;
  addLatency(rollup.histogram, ms);
}

/** Adds `from` into `into`, in place. */
export function mergeRollup(into: Rollup, from: Rollup): void {
  into.attempted += from.attempted;
  into.succeeded += from.succeeded;
  into.failed += from.failed;
  for (const key of LATENCY_BUCKET_KEYS) into.buckets[key] += from.buckets[key] ?? 0;
  mergeHistogram(into.histogram, from.histogram);
}

/** Takes `from` out of `into`, in place: a later running total minus an earlier one. */
export function subtractRollup(into: Rollup, from: Rollup): void {
  into.attempted -= from.attempted;
  into.succeeded -= from.succeeded;
  into.failed -= from.failed;
  for (const key of LATENCY_BUCKET_KEYS) into.buckets[key] -= from.buckets[key] ?? 0;
  subtractHistogram(into.histogram, from.histogram);
}

export const floorTo = (ms: number, unit: number): number => Math.floor(ms / unit) * unit;

/** The first instant a window read at `nowMs` counts (a minute boundary). */
export function windowStart(nowMs: number, window: MetricsWindow): number {
  return floorTo(nowMs, MINUTE_MS) + MINUTE_MS - METRICS_WINDOWS[window];
}

/** What a window is read from. */
export interface WindowCover {
  /**
   * The window before the current minute, `[from, to)` on minute boundaries (empty when equal): the
   * running total before `to` minus the running total before `from`.
   */
  totals: { from: number; to: number };
  /** The current minute, read from its minute rollup. */
  minutes: { from: number; to: number }[];
}

/**
 * What the window read at `nowMs` is made of: two running totals and the current minute's rollup,
 * three rows per webhook whatever the window and the traffic.
 */
export function windowCover(nowMs: number, window: MetricsWindow): WindowCover {
  const current = floorTo(nowMs, MINUTE_MS);
  return {
    totals: { from: windowStart(nowMs, window), to: current },
    minutes: [{ from: current, to: current + MINUTE_MS }],
  };
}

/**
 * The rollup ranges that add up `[from, to)` (minute boundaries; `from` may be -Infinity): minutes up
 * to the first whole hour, whole hours, minutes after the last whole hour.
 */
export function spanCover(
  from: number,
  to: number,
): { hours: { from: number; to: number } | null; minutes: { from: number; to: number }[] } {
  const firstHour = Number.isFinite(from) ? Math.ceil(from / HOUR_MS) * HOUR_MS : from;
  const lastHour = floorTo(to, HOUR_MS);
  if (!(firstHour < lastHour)) return { hours: null, minutes: [{ from, to }] };
  return {
    hours: { from: firstHour, to: lastHour },
    minutes: [
      { from, to: firstHour },
      { from: lastHour, to },
    ].filter((range) => range.to > range.from),
  };
}

/** `100 × succeeded / attempted` with two decimals; 0 when nothing was attempted. */
export function successRate(succeeded: number, attempted: number): number {
  return attempted === 0 ? 0 : Math.round((succeeded * 10_000) / attempted) / 100;
}

/** The payload figures of a rollup. */
export interface DeliveryFigures {
  attempted: number;
  succeeded: number;
  failed: number;
  success_rate: number;
  latency: { p50_ms: number; p95_ms: number; p99_ms: number };
  latency_buckets: Record<LatencyBucketKey, number>;
}

export function toFigures(rollup: Rollup): DeliveryFigures {
  const [p50, p95, p99] = percentiles(rollup.histogram, [50, 95, 99]);
  return {
    attempted: rollup.attempted,
    succeeded: rollup.succeeded,
    failed: rollup.failed,
    success_rate: successRate(rollup.succeeded, rollup.attempted),
    latency: { p50_ms: p50!, p95_ms: p95!, p99_ms: p99! },
    latency_buckets: { ...rollup.buckets },
  };
}
