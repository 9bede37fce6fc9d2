/**
 * The `test` operation: a `webhook_test` event delivered to one webhook at once, signed like every
 * delivery. The event is in the activity log (and goes to no other webhook); the attempt is in the
 * attempt log and the metrics, and updates the webhook's `last_delivery` and `last_error`, never its
 * state or failure count.
 */
import type { DeliveryAttempt } from '../../model/model.js';
import { attemptRow, sendSigned } from '../attempt.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { webhookData } from './webhook-data.js';
import { findWebhook, requireKeyring } from './webhook-lookup.js';

/** Sends webhook `webhookId` a `webhook_test` event now; the attempt it made, as recorded. */
export async function testWebhook(
  deps: Pick<WebhookDeps, 'store' | 'now' | 'ids' | 'keyring' | 'webhooks'>,
  caller: WebhookCaller,
  webhookId: string,
): Promise<DeliveryAttempt> {
  const { store, webhooks } = deps;
  const keyring = requireKeyring(deps.keyring);
  const webhook = await findWebhook(store, caller.organization.id, webhookId);
  const event = await store.activity.append(
    caller.organization.id,
    webhookEvent(deps.ids, caller, 'webhook_test', webhookData(webhook)),
  );
  const startedAt = deps.now();
  const result = await sendSigned(
    { keyring, store, transport: await webhooks.transport(), timeoutMs: webhooks.timeoutMs, now: deps.now },
    webhook,
    { id: event.id, json: JSON.stringify(event) },
  );
  // A test is no delivery of the queue: its row names the event, and no delivery, as sent once.
  const delivery = {
    id: '',
    organization_id: webhook.organization_id,
    webhook_id: webhook.id,
    event_id: event.id,
    event_seq: event.seq,
    state: 'pending' as const,
    attempts: 0,
    next_attempt_at: caller.at,
    lease_until: null,
    created_at: caller.at,
  };
  const claimed = { delivery, webhook, eventJson: '', eventType: event.type };
  const attempt = attemptRow(deps.ids, claimed, startedAt, result, null, true);
  await store.deliveries.record({ attempt, outcome: 'test' }, null);
  return attempt;
}
