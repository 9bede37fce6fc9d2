/**
 * Reading a metrics window, written once for the metrics summary and the timeline: a window read at
 * `now` runs from {@link windowStart} to the end of the current minute, cut at edges into intervals
 * (one interval for the summary, hours to days for the timeline). Every edge before the last is a
 * minute boundary read as a running total per webhook; the last is the current minute's end, read as
 * the running total before the current minute plus that minute's rollup. An interval is the total at
 * its end minus the one at its start, so the cost grows with the number of edges and webhooks, never
 * with the number of attempts.
 */
import type { AuditWebhook } from '../model/model.js';
import type { Rollup } from '../model/rollup.js';
import type { MetricsSource } from '../model/rollup-source.js';
import {
  emptyRollup,
  floorTo,
  type MetricsWindow,
  MINUTE_MS,
  mergeRollup,
  subtractRollup,
  windowStart,
} from './rollup.js';

/** The window a metrics read covers when the request names none. */
export const DEFAULT_METRICS_WINDOW: MetricsWindow = '24h';

/** The first and the last edge of the window read at `nowMs`: its start and the current minute's end. */
export function windowBounds(nowMs: number, window: MetricsWindow): [start: number, end: number] {
  return [windowStart(nowMs, window), floorTo(nowMs, MINUTE_MS) + MINUTE_MS];
}

/** One webhook of the organization and its rollup over each interval between consecutive edges. */
export interface WebhookIntervals {
  webhook: AuditWebhook;
  intervals: Rollup[];
}

/** An ISO 8601 UTC time, as the store keys its rollups and running totals. */
export const iso = (ms: number): string => new Date(ms).toISOString();

function copy(rollup: Rollup): Rollup {
  const into = emptyRollup();
  mergeRollup(into, rollup);
  return into;
}

/**
 * Every webhook of the organization (in the store's order) with its rollup over each interval between
 * consecutive `edges`: ascending minute boundaries from a window's start, the last of them the end of
 * the current minute of `nowMs` (see {@link windowBounds}).
 */
export async function readIntervals(
  store: MetricsSource,
  organizationId: string,
  edges: readonly number[],
  nowMs: number,
): Promise<WebhookIntervals[]> {
  const current = floorTo(nowMs, MINUTE_MS);
  const end = edges[edges.length - 1]!;
  const boundaries = [...new Set([...edges.slice(0, -1), current])].map(iso);
  const [webhooks, totals, minute] = await Promise.all([
    store.auditWebhooks.list(organizationId),
    store.deliveries.totalsBefore(organizationId, boundaries),
    store.deliveries.minuteRollups(organizationId, [{ from: iso(current), to: iso(end) }]),
  ]);
  return webhooks.map((webhook) => {
    const at = (edge: number): Rollup => {
      if (edge !== end) return totals.get(iso(edge))?.get(webhook.id) ?? emptyRollup();
      const total = copy(totals.get(iso(current))?.get(webhook.id) ?? emptyRollup());
      const rollup = minute.get(webhook.id);
      if (rollup) mergeRollup(total, rollup);
      return total;
    };
    const intervals: Rollup[] = [];
    let before = at(edges[0]!);
    for (const edge of edges.slice(1)) {
      const after = at(edge);
      const interval = copy(after);
      subtractRollup(interval, before);
      intervals.push(interval);
      before = after;
    }
    return { webhook, intervals };
  });
}
