/**
 * The attempt log of an audit webhook, and `recover`: replaying events from the activity log
 * (`delivery/webhooks/recover-webhook.ts`).
 */
import { recoverWebhook } from '../delivery/webhooks/recover-webhook.js';
import { webhookAttempts } from '../delivery/webhooks/webhook-reads.js';
import { toAttemptView } from '../http/views.js';
import {
  DeliveriesQuery,
  DeliveriesResponse,
  RecoverBody,
  RecoverResponse,
} from '../schemas/audit-webhooks.js';
import { answers, error } from './docs.js';
import { WEBHOOK } from './paths.js';
import { webhookAction, webhookParam, webhookRoute } from './webhook-route.js';

export const auditWebhookDeliveryRoutes = [
  webhookRoute('GET', `${WEBHOOK}/deliveries`, {
    operationId: 'listAuditWebhookDeliveries',
    summary:
      'The attempt log of the webhook, newest first: each attempt with its event, outcome, status code, latency, error and scheduled retry.',
    query: DeliveriesQuery,
    responses: answers(200, 'Attempts', DeliveriesResponse),
    async handler(ctx) {
      const { store } = ctx.deps;
      const page = await webhookAttempts(store, ctx.organization.id, webhookParam(ctx), ctx.query);
      return { status: 200, body: { attempts: page.attempts.map(toAttemptView), next_cursor: page.next } };
    },
  }),

  webhookRoute('POST', `${WEBHOOK}/recover`, {
    operationId: 'recoverAuditWebhook',
    summary:
      'Queue again, for this webhook, every event of the organization that occurred at or after `since` and before `until` (exclusive, when given) and that its current event_types filter selects (not already owed to it), in seq order, a batch at a time (webhooks.replay.batch, default 100): each batch once the webhook has nothing due, so live events go first. queued is how many events the replay covers, at most webhooks.replay.maxEvents (default 100,000); one replay of a webhook at a time. Waits while the webhook is dead-lettered; refused while it is disabled.',
    body: RecoverBody,
    responses: answers(202, 'Queued', RecoverResponse, {
      409: error(
        'webhook_disabled: the webhook is disabled, enable it first; or limit_exceeded: the range covers more events than webhooks.replay.maxEvents, or a replay of the webhook is still under way',
      ),
    }),
    handler: webhookAction(recoverWebhook, (queued) => ({ queued }), 202),
  }),
];
