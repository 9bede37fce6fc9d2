/**
 * The webhook series of one organization and window as `core.metricsText()` writes them, bounded
 * whatever the organization creates: the oldest `cap` webhooks get series of their own, labelled by
 * the id the server made (never a name or URL, which callers choose), and every other webhook's
 * rollup is summed into one series, `webhook="other"`, whose percentiles come from the summed
 * histograms (so they are the percentiles of those webhooks' attempts taken together).
 */
import type { AuditWebhookStatus } from '../model/model.js';
import type { MetricsSource } from '../model/rollup-source.js';
import { type DeliveryFigures, emptyRollup, type MetricsWindow, mergeRollup, toFigures } from './rollup.js';
import { readIntervals, windowBounds } from './window.js';

/** The label of the series that sums the webhooks past the cap. */
const OTHER_WEBHOOKS = 'other';

/** One series: a webhook by id with its state, or the sum of the rest (no state). */
export interface WebhookSeries {
  webhook: string;
  status: AuditWebhookStatus | null;
  figures: DeliveryFigures;
}

/** What the Prometheus text holds of one organization over one window. */
export interface SeriesReport {
  window: MetricsWindow;
  deadLettered: number;
  series: WebhookSeries[];
}

/** The series of the organization's webhooks over `window` at `nowMs`, at most `cap` + 1 of them. */
export async function seriesReport(
  store: MetricsSource,
  organizationId: string,
  window: MetricsWindow,
  nowMs: number,
  cap: number,
): Promise<SeriesReport> {
  // The store lists webhooks oldest first: the same ones keep their own series from scrape to scrape.
  const read = await readIntervals(store, organizationId, windowBounds(nowMs, window), nowMs);
  const series: WebhookSeries[] = read.slice(0, cap).map(({ webhook, intervals: [rollup] }) => ({
    webhook: webhook.id,
    status: webhook.status,
    figures: toFigures(rollup!),
  }));
  if (read.length > cap) {
    const rest = emptyRollup();
    for (const { intervals } of read.slice(cap)) mergeRollup(rest, intervals[0]!);
    series.push({ webhook: OTHER_WEBHOOKS, status: null, figures: toFigures(rest) });
  }
  return {
    window,
    deadLettered: read.filter(({ webhook }) => webhook.status === 'dead_letter').length,
    series,
  };
}
