/**
 * `GET …/audit-webhooks/metrics?window=24h|7d|30d`: delivery figures of every webhook and their
 * summary (source section 2.2), read from two running totals per webhook (taken at minute
 * boundaries from the minute and hour rollups) and the current minute, so the cost does not grow
 * with the number of attempts. Counts are exact at minute granularity: the window is the current minute
 * and the whole minutes before it (see `metrics-rollup.ts`).
 */
import { defineRoute } from '../router.js';
import { MetricsQuery, MetricsResponse } from '../webhook-schemas.js';
import { metricsReport } from '../webhooks/metrics-report.js';
import { WEBHOOKS } from './audit-webhooks.js';
import { commonErrors } from './docs.js';

export const auditWebhookMetricsRoutes = [
  defineRoute({
    method: 'GET',
    path: `${WEBHOOKS}/metrics`,
    operationId: 'getAuditWebhookMetrics',
    summary:
      'Delivery metrics over a window (default 24h): attempts, successes, failures, success rate (percent, two decimals), latency percentiles (nearest rank, read from a histogram within 0.4 %) and latency buckets, for all webhooks and each one.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    query: MetricsQuery,
    responses: {
      200: { description: 'Metrics (source section 2.2)', schema: MetricsResponse },
      ...commonErrors,
    },
    async handler(ctx) {
      const report = await metricsReport(
        ctx.services.store,
        ctx.organization.id,
        ctx.query.window ?? '24h',
        ctx.services.now(),
      );
      return { status: 200, body: report };
    },
  }),
];
