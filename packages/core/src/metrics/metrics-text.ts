/**
 * `core.metricsText()`: the audit webhook metrics of a whole store, the delivery queue of each
 * organization, and this process's HTTP counters, as one Prometheus text.
 */
import type { LatchkeyStore } from '../store/ports/store.js';
import type { HttpMetrics } from './http-metrics.js';
import { renderPrometheus } from './prometheus.js';
import { type SeriesReport, seriesReport } from './prometheus-series.js';
import { renderQueueMetrics } from './queue-metrics.js';

/** The windows every organization is reported over. */
const WINDOWS = ['24h', '7d', '30d'] as const;

/**
 * Every figure as Prometheus text: webhooks per organization and window (at most
 * `seriesPerOrganization` webhooks with series of their own, the rest summed), queues, HTTP.
 */
export async function metricsText(
  store: LatchkeyStore,
  now: () => number,
  seriesPerOrganization: number,
  http?: HttpMetrics,
): Promise<string> {
  const at = now();
  const backlog = [];
  for (const entry of await store.deliveries.backlog(new Date(at).toISOString())) {
    const organization = await store.organizations.getById(entry.organizationId);
    if (organization) backlog.push({ ...entry, organization: organization.slug });
  }
  return (
    (await webhookText(store, now, seriesPerOrganization)) +
    renderQueueMetrics(backlog, at) +
    (http?.render() ?? '')
  );
}

/** The metrics of every organization with audit webhooks, each window, as Prometheus text. */
async function webhookText(store: LatchkeyStore, now: () => number, cap: number): Promise<string> {
  const reports: { organization: string; report: SeriesReport }[] = [];
  for (const organizationId of await store.auditWebhooks.organizationIds()) {
    const organization = await store.organizations.getById(organizationId);
    if (!organization) continue;
    for (const window of WINDOWS) {
      reports.push({
        organization: organization.slug,
        report: await seriesReport(store, organizationId, window, now(), cap),
      });
    }
  }
  return renderPrometheus(reports);
}
