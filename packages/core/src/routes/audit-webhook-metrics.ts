/**
 * `GET …/audit-webhooks/metrics` and `GET …/audit-webhooks/metrics/timeline`, each with
 * `?window=24h|7d|30d` (default 24h): the delivery figures of every webhook and their summary, and
 * the same window per interval (hours, six hours or days) for the dashboard's timeline. Both read
 * the window the same way (see `metrics/window.ts`): running totals at minute boundaries and the
 * current minute's rollup, so the cost does not grow with the number of attempts, and counts are
 * exact at minute granularity.
 */
import type { z } from 'zod';
import { metricsReport } from '../metrics/report.js';
import type { MetricsWindow } from '../metrics/rollup.js';
import { metricsTimeline } from '../metrics/timeline.js';
import { DEFAULT_METRICS_WINDOW } from '../metrics/window.js';
import { MetricsQuery, MetricsResponse, MetricsTimelineResponse } from '../schemas/audit-webhooks.js';
import type { LatchkeyStore } from '../store/types.js';
import { answers } from './docs.js';
import { WEBHOOKS } from './paths.js';
import { webhookRoute } from './webhook-route.js';

/** What a metrics route declares: where it answers, what it says, and how it reads the window. */
interface WindowRoute {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  schema: z.ZodType;
  read(store: LatchkeyStore, organizationId: string, window: MetricsWindow, nowMs: number): Promise<unknown>;
}

/** A `GET` of the organization's delivery metrics over the window the query names. */
function windowRoute({ path, operationId, summary, description, schema, read }: WindowRoute) {
  return webhookRoute('GET', path, {
    operationId,
    summary,
    query: MetricsQuery,
    responses: answers(200, description, schema),
    async handler(ctx) {
      const window = ctx.query.window ?? DEFAULT_METRICS_WINDOW;
      const body = await read(ctx.deps.store, ctx.organization.id, window, ctx.deps.now());
      return { status: 200, body };
    },
  });
}

export const auditWebhookMetricsRoutes = [
  windowRoute({
    path: `${WEBHOOKS}/metrics`,
    operationId: 'getAuditWebhookMetrics',
    summary:
      'Delivery metrics over a window (default 24h): attempts, successes, failures, success rate (percent, two decimals), latency percentiles (nearest rank, read from a histogram within 0.4 %) and latency buckets, for all webhooks and each one.',
    description: 'Metrics: the summary over all webhooks and the figures of each',
    schema: MetricsResponse,
    read: metricsReport,
  }),
  windowRoute({
    path: `${WEBHOOKS}/metrics/timeline`,
    operationId: 'getAuditWebhookMetricsTimeline',
    summary:
      'Delivery attempts, successes, failures and latency percentiles per interval of a window (default 24h: hours; 7d: six hours; 30d: days), for all webhooks; the intervals add up to the metrics summary.',
    description: 'The timeline, oldest interval first',
    schema: MetricsTimelineResponse,
    read: metricsTimeline,
  }),
];
