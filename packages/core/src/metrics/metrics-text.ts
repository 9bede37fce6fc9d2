/** The audit webhook metrics of a whole store as one Prometheus text (`core.metricsText()`). */
import type { LatchkeyStore } from '../store/ports/store.js';
import { renderPrometheus } from './prometheus.js';
import { type MetricsReport, metricsReport } from './report.js';

/** The windows every organization is reported over. */
const WINDOWS = ['24h', '7d', '30d'] as const;

/** The metrics of every organization with audit webhooks, each window, as Prometheus text. */
export async function metricsText(store: LatchkeyStore, now: () => number): Promise<string> {
  const reports: { organization: string; report: MetricsReport }[] = [];
  for (const organizationId of await store.auditWebhooks.organizationIds()) {
    const organization = await store.organizations.getById(organizationId);
    if (!organization) continue;
    for (const window of WINDOWS) {
      reports.push({
        organization: organization.slug,
        report: await metricsReport(store, organizationId, window, now()),
      });
    }
  }
  return renderPrometheus(reports);
}
