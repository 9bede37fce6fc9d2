/** The attempt log of an audit webhook, and `recover`: replaying events from the activity log. */
import { LatchkeyError } from '../errors.js';
import { defineRoute } from '../router.js';
import { DeliveriesQuery, DeliveriesResponse, RecoverBody, RecoverResponse } from '../webhook-schemas.js';
import { WEBHOOKS, webhookData, webhookOf } from './audit-webhooks.js';
import { commonErrors, error } from './docs.js';
import { toAttemptView } from './views.js';

const WEBHOOK = `${WEBHOOKS}/{auditWebhook}`;

export const auditWebhookDeliveryRoutes = [
  defineRoute({
    method: 'GET',
    path: `${WEBHOOK}/deliveries`,
    operationId: 'listAuditWebhookDeliveries',
    summary:
      'The attempt log of the webhook, newest first: each attempt with its event, outcome, status code, latency, error and scheduled retry.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    query: DeliveriesQuery,
    responses: { 200: { description: 'Attempts', schema: DeliveriesResponse }, ...commonErrors },
    async handler(ctx) {
      const webhook = await webhookOf(ctx);
      const page = await ctx.services.store.deliveries.attempts(ctx.organization.id, webhook.id, {
        limit: ctx.query.limit ?? 20,
        beforeId: ctx.query.cursor,
      });
      return { status: 200, body: { attempts: page.attempts.map(toAttemptView), next_cursor: page.next } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${WEBHOOK}/recover`,
    operationId: 'recoverAuditWebhook',
    summary:
      'Queue again, for this webhook, every event of the organization that occurred at or after `since` (not already owed to it). Held while the webhook is dead-lettered; refused while it is disabled.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    body: RecoverBody,
    responses: {
      202: { description: 'Queued', schema: RecoverResponse },
      ...commonErrors,
      409: error('webhook_disabled: the webhook is disabled; enable it first'),
    },
    async handler(ctx) {
      const existing = await webhookOf(ctx);
      if (existing.status === 'disabled') {
        throw new LatchkeyError(
          'webhook_disabled',
          'The audit webhook is disabled; enable it before recovering events.',
        );
      }
      const since = new Date(ctx.body.since).toISOString();
      const queued = await ctx.services.store.transaction(async (tx) => {
        const count = await tx.deliveries.replay(ctx.organization.id, existing.id, since, ctx.at);
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('audit_webhook_recovered', { ...webhookData(existing), since, queued: count }),
        );
        return count;
      });
      return { status: 202, body: { queued } };
    },
  }),
];
