/** How every audit-webhook event names its webhook. */
import type { AuditWebhook } from '../../model/model.js';

/** The event data naming a webhook: its id, name and host (never the full URL, which may carry a token). */
export const webhookData = (webhook: AuditWebhook) => ({
  webhook_id: webhook.id,
  name: webhook.name,
  host: new URL(webhook.url).host,
});
