/**
 * `PATCH …/audit-webhooks/{auditWebhook}`: change a webhook's name, URL, event-type filter, custom
 * headers, client certificate or signature scheme, a call into the webhook service
 * (`delivery/webhooks/update-webhook.ts`), which records `audit_webhook_updated` with what changed.
 */
import { updateWebhook } from '../delivery/webhooks/update-webhook.js';
import { toAuditWebhookView } from '../http/views.js';
import { AuditWebhookWithSecretResponse, UpdateAuditWebhookBody } from '../schemas/audit-webhooks.js';
import { answers } from './docs.js';
import { WEBHOOK } from './paths.js';
import { webhookAction, webhookRoute } from './webhook-route.js';

export const auditWebhookUpdateRoutes = [
  webhookRoute('PATCH', WEBHOOK, {
    operationId: 'updateAuditWebhook',
    summary:
      'Change the name, URL (checked against SSRF as at create), event_types filter, custom headers (a merge patch), client certificate (null removes it) or signature_scheme of an audit webhook. A new filter applies to events recorded after the change; recover replays by the filter as it then is. Moving into latchkey or standard-webhooks issues a new signing secret, in this answer only (signing_secret).',
    body: UpdateAuditWebhookBody,
    responses: answers(200, 'Updated', AuditWebhookWithSecretResponse),
    handler: webhookAction(updateWebhook, ({ webhook, signingSecret }) => {
      const view = toAuditWebhookView(webhook);
      return signingSecret === undefined ? view : { ...view, signing_secret: signingSecret };
    }),
  }),
];
