/**
 * The metrics payload of one organization over a window (the summary over all its webhooks and the
 * figures of each), read from the
 * rollups: what `GET …/audit-webhooks/metrics` answers and what `core.metricsText()` renders.
 */
import type { AuditWebhook, DeliveryError } from '../model/model.js';
import type { MetricsSource } from '../model/rollup-source.js';
import { type DeliveryFigures, emptyRollup, type MetricsWindow, mergeRollup, toFigures } from './rollup.js';
import { readIntervals, windowBounds } from './window.js';

/** The metrics of one organization over a window: a summary and each webhook's figures. */
export interface MetricsReport {
  window: MetricsWindow;
  summary: Omit<DeliveryFigures, 'latency_buckets'> & { dead_lettered_webhooks: number };
  webhooks: (Pick<AuditWebhook, 'id' | 'name' | 'status'> &
    DeliveryFigures & { last_error: DeliveryError | null })[];
}

/** The metrics of the organization's webhooks over `window`, read at `nowMs`. */
export async function metricsReport(
  store: MetricsSource,
  organizationId: string,
  window: MetricsWindow,
  nowMs: number,
): Promise<MetricsReport> {
  // The whole window is one interval.
  const read = await readIntervals(store, organizationId, windowBounds(nowMs, window), nowMs);
  const webhooks = read.map((entry) => entry.webhook);
  const total = emptyRollup();
  const entries = read.map(({ webhook, intervals: [rollup] }) => {
    mergeRollup(total, rollup!);
    const figures = toFigures(rollup!);
    return {
      id: webhook.id,
      name: webhook.name,
      status: webhook.status,
      attempted: figures.attempted,
      succeeded: figures.succeeded,
      failed: figures.failed,
      success_rate: figures.success_rate,
      latency: figures.latency,
      latency_buckets: figures.latency_buckets,
      last_error: webhook.last_error,
    };
  });
  const summary = toFigures(total);
  return {
    window,
    summary: {
      attempted: summary.attempted,
      succeeded: summary.succeeded,
      failed: summary.failed,
      success_rate: summary.success_rate,
      dead_lettered_webhooks: webhooks.filter((w) => w.status === 'dead_letter').length,
      latency: summary.latency,
    },
    webhooks: entries,
  };
}
