/**
 * The metrics payload of one organization over a window (source section 2.2), read from the
 * rollups: what `GET …/audit-webhooks/metrics` answers and what `core.metricsText()` renders.
 */
import type { AuditWebhook, DeliveryError } from '../model.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import {
  type DeliveryFigures,
  emptyRollup,
  type MetricsWindow,
  mergeRollup,
  subtractRollup,
  toFigures,
  windowCover,
} from './metrics-rollup.js';

export interface MetricsReport {
  window: MetricsWindow;
  summary: Omit<DeliveryFigures, 'latency_buckets'> & { dead_lettered_webhooks: number };
  webhooks: (Pick<AuditWebhook, 'id' | 'name' | 'status'> &
    DeliveryFigures & { last_error: DeliveryError | null })[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function metricsReport(
  store: LatchkeyStore,
  organizationId: string,
  window: MetricsWindow,
  nowMs: number,
): Promise<MetricsReport> {
  const cover = windowCover(nowMs, window);
  const middle = cover.totals.to > cover.totals.from;
  const [webhooks, rollups, totals] = await Promise.all([
    store.auditWebhooks.list(organizationId),
    store.deliveries.minuteRollups(
      organizationId,
      cover.minutes.map((r) => ({ from: iso(r.from), to: iso(r.to) })),
    ),
    middle
      ? store.deliveries.totalsBefore(organizationId, [iso(cover.totals.from), iso(cover.totals.to)])
      : null,
  ]);
  const total = emptyRollup();
  const entries = webhooks.map((webhook) => {
    const rollup = rollups.get(webhook.id) ?? emptyRollup();
    if (totals) {
      // Before the current minute: the running total at its start minus the one at the window's start.
      const after = totals.get(iso(cover.totals.to))?.get(webhook.id);
      const before = totals.get(iso(cover.totals.from))?.get(webhook.id);
      if (after) mergeRollup(rollup, after);
      if (before) subtractRollup(rollup, before);
    }
    mergeRollup(total, rollup);
    const figures = toFigures(rollup);
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
