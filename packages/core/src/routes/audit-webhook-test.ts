/**
 * `POST …/audit-webhooks/{auditWebhook}/test`: delivers a `webhook_test` event to the webhook at
 * once, signed like every delivery, and answers how it went. The event is in the activity log (and
 * goes to no other webhook); the attempt is in the attempt log and the metrics, and updates the
 * webhook's `last_delivery` and `last_error`, never its state or failure count.
 */

import { attemptRow, sendSigned } from '../delivery/attempt.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { TestResponse } from '../schemas/audit-webhooks.js';
import { webhookData, webhookOf, webhookRoute } from './audit-webhooks.js';
import { answers } from './docs.js';
import { WEBHOOK } from './paths.js';

export const auditWebhookTestRoutes = [
  webhookRoute({
    method: 'POST',
    path: `${WEBHOOK}/test`,
    operationId: 'testAuditWebhook',
    summary:
      'Send a webhook_test event to the webhook now and report the outcome: delivered (2xx), status code, latency and error. Counts as an attempt in the metrics.',
    responses: answers(200, 'The outcome of the test delivery', TestResponse),
    async handler(ctx) {
      const { keyring, store, webhooks } = ctx.services;
      if (!keyring) {
        throw new LatchkeyError(
          'service_unavailable',
          'Audit webhooks need a keyring (core option keyring).',
        );
      }
      const webhook = await webhookOf(ctx);
      const event = await store.activity.append(
        ctx.organization.id,
        ctx.event('webhook_test', webhookData(webhook)),
      );
      const startedAt = ctx.services.now();
      const result = await sendSigned(
        {
          keyring,
          store,
          transport: await webhooks.transport(),
          timeoutMs: webhooks.timeoutMs,
          now: ctx.services.now,
        },
        webhook,
        { id: event.id, json: JSON.stringify(event) },
      );
      const attempt = attemptRow(
        ctx.services.ids,
        {
          delivery: {
            id: '',
            organization_id: webhook.organization_id,
            webhook_id: webhook.id,
            event_id: event.id,
            event_seq: event.seq,
            state: 'pending',
            attempts: 0,
            next_attempt_at: ctx.at,
            lease_until: null,
            created_at: ctx.at,
          },
          webhook,
          eventJson: '',
          eventType: event.type,
        },
        startedAt,
        result,
        null,
        true,
      );
      await store.deliveries.record({ attempt, outcome: 'test' }, null);
      return {
        status: 200,
        body: {
          delivered: result.ok,
          status_code: result.statusCode,
          latency_ms: attempt.latency_ms,
          error: attempt.error,
        },
      };
    },
  }),
];
