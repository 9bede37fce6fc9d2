/**
 * The metrics window as a time series, for the dashboard's timeline: attempts, successes, failures
 * and latency percentiles per interval (24h: hours, 7d: six hours, 30d: days, on UTC boundaries;
 * the first interval starts at the window's start and the last ends with the current minute, so the
 * intervals add up exactly to the window's summary). Read like the window itself: a running total
 * per webhook at each interval edge and the current minute's rollup, so the cost grows with the
 * number of intervals and webhooks, never with the number of attempts.
 */

import type { MetricsSource } from '../model/rollup-source.js';
import { emptyRollup, floorTo, HOUR_MS, type MetricsWindow, mergeRollup, toFigures } from './rollup.js';
import { iso, readIntervals, windowBounds } from './window.js';

/** The length of a timeline interval per window. */
export const TIMELINE_STEP_MS: Record<MetricsWindow, number> = {
  '24h': HOUR_MS,
  '7d': 6 * HOUR_MS,
  '30d': 24 * HOUR_MS,
};

/** One interval of the timeline, summed over the organization's webhooks. */
export interface TimelineBucket {
  from: string;
  to: string;
  attempted: number;
  succeeded: number;
  failed: number;
  latency: { p50_ms: number; p95_ms: number; p99_ms: number };
}

/** The timeline payload: the window, the length of a whole interval, and the intervals. */
export interface MetricsTimeline {
  window: MetricsWindow;
  step_seconds: number;
  buckets: TimelineBucket[];
}

/** The interval edges of the window read at `nowMs`: its start, the step boundaries, the current minute's end. */
function timelineEdges(nowMs: number, window: MetricsWindow): number[] {
  const [start, end] = windowBounds(nowMs, window);
  const step = TIMELINE_STEP_MS[window];
  const edges = [start];
  for (let edge = floorTo(start, step) + step; edge < end; edge += step) edges.push(edge);
  edges.push(end);
  return edges;
}

/** The timeline of the organization's deliveries over `window`, read at `nowMs`. */
export async function metricsTimeline(
  store: MetricsSource,
  organizationId: string,
  window: MetricsWindow,
  nowMs: number,
): Promise<MetricsTimeline> {
  const edges = timelineEdges(nowMs, window);
  const sums = edges.slice(1).map(() => emptyRollup());
  for (const { intervals } of await readIntervals(store, organizationId, edges, nowMs)) {
    for (const [i, interval] of intervals.entries()) mergeRollup(sums[i]!, interval);
  }
  return {
    window,
    step_seconds: TIMELINE_STEP_MS[window] / 1000,
    buckets: sums.map((sum, i) => {
      const figures = toFigures(sum);
      return {
        from: iso(edges[i]!),
        to: iso(edges[i + 1]!),
        attempted: figures.attempted,
        succeeded: figures.succeeded,
        failed: figures.failed,
        latency: figures.latency,
      };
    }),
  };
}
