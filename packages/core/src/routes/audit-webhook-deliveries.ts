/** The attempt log of an audit webhook, and `recover`: replaying events from the activity log. */
import { LatchkeyError } from '../http/errors.js';
import {
  DeliveriesQuery,
  DeliveriesResponse,
  RecoverBody,
  RecoverResponse,
} from '../schemas/audit-webhooks.js';
import { webhookData, webhookOf, webhookRoute } from './audit-webhooks.js';
import { answers, error } from './docs.js';
import { WEBHOOK } from './paths.js';
import { recordChange } from './record-change.js';
import { toAttemptView } from './views.js';

export const auditWebhookDeliveryRoutes = [
  webhookRoute({
    method: 'GET',
    path: `${WEBHOOK}/deliveries`,
    operationId: 'listAuditWebhookDeliveries',
    summary:
      'The attempt log of the webhook, newest first: each attempt with its event, outcome, status code, latency, error and scheduled retry.',
    query: DeliveriesQuery,
    responses: answers(200, 'Attempts', DeliveriesResponse),
    async handler(ctx) {
      const webhook = await webhookOf(ctx);
      const page = await ctx.services.store.deliveries.attempts(ctx.organization.id, webhook.id, {
        limit: ctx.query.limit ?? 20,
        beforeId: ctx.query.cursor,
      });
      return { status: 200, body: { attempts: page.attempts.map(toAttemptView), next_cursor: page.next } };
    },
  }),

  webhookRoute({
    method: 'POST',
    path: `${WEBHOOK}/recover`,
    operationId: 'recoverAuditWebhook',
    summary:
      'Queue again, for this webhook, every event of the organization that occurred at or after `since` and before `until` (exclusive, when given) and that its current event_types filter selects (not already owed to it), in seq order. Held while the webhook is dead-lettered; refused while it is disabled.',
    body: RecoverBody,
    responses: answers(202, 'Queued', RecoverResponse, {
      409: error('webhook_disabled: the webhook is disabled; enable it first'),
    }),
    async handler(ctx) {
      const existing = await webhookOf(ctx);
      if (existing.status === 'disabled') {
        throw new LatchkeyError(
          'webhook_disabled',
          'The audit webhook is disabled; enable it before recovering events.',
        );
      }
      const since = new Date(ctx.body.since).toISOString();
      const until = ctx.body.until && new Date(ctx.body.until).toISOString();
      const queued = await recordChange(
        ctx,
        (tx) => tx.deliveries.replay(ctx.organization.id, existing.id, since, ctx.at, until),
        (count) =>
          ctx.event('audit_webhook_recovered', {
            ...webhookData(existing),
            since,
            ...(until === undefined ? {} : { until }),
            event_types: existing.event_types,
            queued: count,
          }),
      );
      return { status: 202, body: { queued } };
    },
  }),
];
