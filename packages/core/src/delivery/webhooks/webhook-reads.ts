/** What the audit-webhook API reads without changing anything: webhooks, attempts, signing keys. */
import type { AuditWebhook } from '../../model/model.js';
import type { AttemptPage, LatchkeyStore } from '../../store/types.js';
import { publishedKeys } from '../signing-keys.js';
import type { WebhookDeps } from './deps.js';
import { findWebhook } from './webhook-lookup.js';

/** The organization's webhooks. */
export function listWebhooks(store: LatchkeyStore, organizationId: string): Promise<AuditWebhook[]> {
  return store.auditWebhooks.list(organizationId);
}

/** A page of the attempt log of webhook `webhookId`, newest first (a 404 if it is not found). */
export async function webhookAttempts(
  store: LatchkeyStore,
  organizationId: string,
  webhookId: string,
  page: { limit?: number | undefined; cursor?: string | undefined },
): Promise<AttemptPage> {
  const webhook = await findWebhook(store, organizationId, webhookId);
  return store.deliveries.attempts(organizationId, webhook.id, {
    limit: page.limit ?? 20,
    beforeId: page.cursor,
  });
}

/** The organization's signing keys that sign now, as published: the current one, and one retiring. */
export async function signingKeysNow(deps: Pick<WebhookDeps, 'store' | 'now'>, organizationId: string) {
  const keys = await deps.store.webhookSigningKeys.list(organizationId);
  return publishedKeys(keys, deps.now());
}
