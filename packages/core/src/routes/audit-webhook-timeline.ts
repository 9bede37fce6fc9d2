/**
 * `GET …/audit-webhooks/metrics/timeline?window=24h|7d|30d`: the window's deliveries per interval
 * (hours, six hours or days), summed over the organization's webhooks, with latency percentiles per
 * interval, for the dashboard's timeline. Read from running totals at the interval edges, so the cost
 * does not grow with the number of attempts (see `webhooks/metrics-timeline.ts`).
 */
import { defineRoute } from '../router.js';
import { MetricsQuery, MetricsTimelineResponse } from '../webhook-schemas.js';
import { metricsTimeline } from '../webhooks/metrics-timeline.js';
import { WEBHOOKS } from './audit-webhooks.js';
import { commonErrors } from './docs.js';

export const auditWebhookTimelineRoutes = [
  defineRoute({
    method: 'GET',
    path: `${WEBHOOKS}/metrics/timeline`,
    operationId: 'getAuditWebhookMetricsTimeline',
    summary:
      'Delivery attempts, successes, failures and latency percentiles per interval of a window (default 24h: hours; 7d: six hours; 30d: days), for all webhooks; the intervals add up to the metrics summary.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    query: MetricsQuery,
    responses: {
      200: { description: 'The timeline, oldest interval first', schema: MetricsTimelineResponse },
      ...commonErrors,
    },
    async handler(ctx) {
      const timeline = await metricsTimeline(
        ctx.services.store,
        ctx.organization.id,
        ctx.query.window ?? '24h',
        ctx.services.now(),
      );
      return { status: 200, body: timeline };
    },
  }),
];
