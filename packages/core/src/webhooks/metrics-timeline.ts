/**
 * The metrics window as a time series, for the dashboard's timeline: attempts, successes, failures
 * and latency percentiles per interval (24h: hours, 7d: six hours, 30d: days, on UTC boundaries;
 * the first interval starts at the window's start and the last ends with the current minute, so the
 * intervals add up exactly to the window's summary). Read like the window itself: a running total
 * per webhook at each interval edge and the current minute's rollup, so the cost grows with the
 * number of intervals and webhooks, never with the number of attempts.
 */
import type { LatchkeyStore } from '../store/ports/store.js';
import {
  emptyRollup,
  floorTo,
  HOUR_MS,
  type MetricsWindow,
  MINUTE_MS,
  mergeRollup,
  type Rollup,
  subtractRollup,
  toFigures,
  windowStart,
} from './metrics-rollup.js';

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

export interface MetricsTimeline {
  window: MetricsWindow;
  step_seconds: number;
  buckets: TimelineBucket[];
}

/** The interval edges of the window read at `nowMs`: its start, the step boundaries, the current minute's end. */
export function timelineEdges(nowMs: number, window: MetricsWindow): number[] {
  const start = windowStart(nowMs, window);
  const end = floorTo(nowMs, MINUTE_MS) + MINUTE_MS;
  const step = TIMELINE_STEP_MS[window];
  const edges = [start];
  for (let edge = floorTo(start, step) + step; edge < end; edge += step) edges.push(edge);
  edges.push(end);
  return edges;
}

const iso = (ms: number) => new Date(ms).toISOString();

function copy(rollup: Rollup): Rollup {
  const into = emptyRollup();
  mergeRollup(into, rollup);
  return into;
}

/** The timeline of the organization's deliveries over `window`, read at `nowMs`. */
export async function metricsTimeline(
  store: LatchkeyStore,
  organizationId: string,
  window: MetricsWindow,
  nowMs: number,
): Promise<MetricsTimeline> {
  const edges = timelineEdges(nowMs, window);
  const current = floorTo(nowMs, MINUTE_MS);
  const end = edges[edges.length - 1]!;
  // Every edge but the last is a minute boundary at or before the current minute: a running total.
  // The last is the current minute's end: the total before the current minute plus its rollup.
  const boundaries = [...new Set([...edges.slice(0, -1), current])].map(iso);
  const [webhooks, totals, minute] = await Promise.all([
    store.auditWebhooks.list(organizationId),
    store.deliveries.totalsBefore(organizationId, boundaries),
    store.deliveries.minuteRollups(organizationId, [{ from: iso(current), to: iso(end) }]),
  ]);
  const sums = edges.slice(1).map(() => emptyRollup());
  for (const webhook of webhooks) {
    const at = (edge: number): Rollup => {
      if (edge === end) {
        const total = copy(totals.get(iso(current))?.get(webhook.id) ?? emptyRollup());
        const rollup = minute.get(webhook.id);
        if (rollup) mergeRollup(total, rollup);
        return total;
      }
      return totals.get(iso(edge))?.get(webhook.id) ?? emptyRollup();
    };
    let before = at(edges[0]!);
    for (let i = 1; i < edges.length; i++) {
      const after = at(edges[i]!);
      const bucket = copy(after);
      subtractRollup(bucket, before);
      mergeRollup(sums[i - 1]!, bucket);
      before = after;
    }
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
