/**
 * `POST …/audit-webhooks/{auditWebhook}/test`: delivers a `webhook_test` event to the webhook at
 * once (`delivery/webhooks/test-delivery.ts`) and answers how it went.
 */
import { testWebhook } from '../delivery/webhooks/test-delivery.js';
import { TestResponse } from '../schemas/audit-webhooks.js';
import { answers } from './docs.js';
import { WEBHOOK } from './paths.js';
import { webhookAction, webhookRoute } from './webhook-route.js';

export const auditWebhookTestRoutes = [
  webhookRoute('POST', `${WEBHOOK}/test`, {
    operationId: 'testAuditWebhook',
    summary:
      'Send a webhook_test event to the webhook now and report the outcome: delivered (2xx), status code, latency and error. Counts as an attempt in the metrics.',
    responses: answers(200, 'The outcome of the test delivery', TestResponse),
    handler: webhookAction(testWebhook, (attempt) => ({
      delivered: attempt.succeeded,
      status_code: attempt.status_code,
      latency_ms: attempt.latency_ms,
      error: attempt.error,
    })),
  }),
];
