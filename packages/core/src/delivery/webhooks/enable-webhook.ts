/**
 * Enabling a disabled or dead-lettered audit webhook: it is active again, and the events held while
 * it was dead-lettered are released for delivery.
 */
import type { AuditWebhook } from '../../model/model.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { changeWebhook } from './record-change.js';
import { webhookData } from './webhook-data.js';

/** Enables webhook `webhookId`, recorded as `audit_webhook_enabled` with the state it left and what it released. */
export async function enableWebhook(
  deps: Pick<WebhookDeps, 'store' | 'ids'>,
  caller: WebhookCaller,
  webhookId: string,
): Promise<AuditWebhook> {
  const organizationId = caller.organization.id;
  const enabled = await changeWebhook(
    deps.store,
    { organizationId, webhookId },
    (tx, { id }) => tx.auditWebhooks.enable(organizationId, id, caller.at),
    ({ webhook, released }, before) =>
      webhookEvent(deps.ids, caller, 'audit_webhook_enabled', {
        ...webhookData(webhook),
        from: before.status,
        released,
      }),
  );
  return enabled.webhook;
}
