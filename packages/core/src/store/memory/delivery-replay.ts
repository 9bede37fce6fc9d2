/** Queuing an organization's events again for one webhook, in memory, by the outbox fan-out rule. */
import { owedState } from '../../delivery/outbox.js';
import {
  type Journal,
  type MemoryState,
  newDelivery,
  notifyDeliveryWatchers,
  queueDelivery,
} from './state.js';

/** See `DeliveryRepository.replay`. */
export function replayDeliveries(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  webhookId: string,
  since: string,
  at: string,
  until?: string,
): number {
  const webhook = state.webhooks.get(webhookId);
  if (!webhook || webhook.organization_id !== organizationId) return 0;
  const owed = new Set([...state.deliveries.ofWebhook(webhookId)].map((d) => d.event_id));
  let queued = 0;
  for (const event of state.events.get(organizationId) ?? []) {
    if (event.occurred_at < since || (until !== undefined && event.occurred_at >= until)) continue;
    if (owed.has(event.id)) continue;
    const starts = owedState(webhook, event.type);
    if (starts === null) continue;
    queueDelivery(state, journal, newDelivery(webhook, event.id, event.seq, starts, at));
    queued++;
  }
  if (queued > 0 && webhook.status === 'active') notifyDeliveryWatchers(state);
  return queued;
}
