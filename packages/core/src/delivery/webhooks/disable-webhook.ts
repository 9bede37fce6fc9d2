/** Disabling an audit webhook: nothing more is queued for it, and what was owed is dropped. */
import type { AuditWebhook } from '../../model/model.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { changeWebhook } from './record-change.js';
import { webhookData } from './webhook-data.js';

/** Disables webhook `webhookId`, recorded as `audit_webhook_disabled` (`recover` replays from the log). */
export function disableWebhook(
  deps: Pick<WebhookDeps, 'store' | 'ids'>,
  caller: WebhookCaller,
  webhookId: string,
): Promise<AuditWebhook> {
  const organizationId = caller.organization.id;
  return changeWebhook(
    deps.store,
    { organizationId, webhookId },
    (tx, { id }) => tx.auditWebhooks.disable(organizationId, id),
    (disabled) => webhookEvent(deps.ids, caller, 'audit_webhook_disabled', webhookData(disabled)),
  );
}
