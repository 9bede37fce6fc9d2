/**
 * Recording one delivery attempt in memory, in one step: the attempt log, the rollups and running
 * totals, the webhook's health and the delivery's state. One attempt per call; recording several
 * outcomes at once would call {@link recordAttempt} for each within one step.
 */
import { lastDeliveryOf } from '../delivery/last-delivery.js';
import { attemptShare } from '../metrics/attempt-share.js';
import type { AuditWebhook, Delivery, DeliveryAttempt } from '../model/model.js';
import type { AttemptRecord } from '../store/ports/deliveries.js';
import { rollUp } from './delivery-rollups.js';
import { addToLaterTotals } from './running-totals.js';
import type { Journal, MemoryState } from './state.js';

type Outcome = AttemptRecord['outcome'];

/** Appends the attempt to its webhook's log. */
function logAttempt(state: MemoryState, journal: Journal, attempt: DeliveryAttempt): void {
  const list = state.attempts.get(attempt.webhook_id) ?? [];
  list.push({ ...attempt, error: attempt.error && { ...attempt.error } });
  state.attempts.set(attempt.webhook_id, list);
  journal?.push(() => list.pop());
}

/**
 * The webhook's `last_delivery`, `last_error` and `consecutive_failures` after the attempt; the
 * undo restores those and `status`, the fields an attempt's record changes (objects replaced, never
 * changed in place, so the undo keeps them as they are).
 */
function updateHealth(journal: Journal, webhook: AuditWebhook, attempt: DeliveryAttempt, outcome: Outcome) {
  const { last_delivery, last_error, consecutive_failures, status } = webhook;
  journal?.push(() => Object.assign(webhook, { last_delivery, last_error, consecutive_failures, status }));
  webhook.last_delivery = lastDeliveryOf(attempt);
  if (attempt.error) webhook.last_error = { ...attempt.error };
  if (outcome === 'delivered') webhook.consecutive_failures = 0;
  else if (outcome !== 'test') webhook.consecutive_failures++;
}

/** The delivery's attempts, lease and state after the attempt (a delivered one leaves the outbox). */
function settle(
  state: MemoryState,
  journal: Journal,
  delivery: Delivery,
  attempt: DeliveryAttempt,
  outcome: Outcome,
) {
  const before = { ...delivery };
  journal?.push(() => {
    Object.assign(delivery, before);
    state.deliveries.set(delivery.id, delivery);
  });
  delivery.attempts++;
  delivery.lease_until = null;
  if (outcome === 'delivered') state.deliveries.delete(delivery.id);
  else if (outcome === 'retry') {
    delivery.next_attempt_at = attempt.next_attempt_at ?? attempt.at;
    // Set again: the outbox files it under its new due time.
    state.deliveries.set(delivery.id, delivery);
  } else if (outcome === 'dead_letter') delivery.state = 'held';
}

/** Moves the webhook to `dead_letter` and holds its other pending deliveries. */
function deadLetter(state: MemoryState, journal: Journal, webhook: AuditWebhook): void {
  webhook.status = 'dead_letter';
  for (const other of state.deliveries.ofWebhook(webhook.id)) {
    if (other.state !== 'pending') continue;
    const before = { ...other };
    other.state = 'held';
    journal?.push(() => Object.assign(other, before));
  }
}

/** See `DeliveryRepository.record`: false, writing nothing, when the lease was lost. */
export function recordAttempt(
  state: MemoryState,
  journal: Journal,
  { attempt, outcome }: AttemptRecord,
  lease: string | null,
): boolean {
  const delivery = attempt.delivery_id === null ? null : state.deliveries.get(attempt.delivery_id);
  if (outcome !== 'test' && (!delivery || delivery.lease_until !== lease)) return false;
  const webhook = state.webhooks.get(attempt.webhook_id);
  if (!webhook || webhook.organization_id !== attempt.organization_id) return false;
  logAttempt(state, journal, attempt);
  const share = attemptShare(attempt);
  rollUp(state, journal, attempt, share);
  addToLaterTotals(state, journal, attempt.webhook_id, share);
  updateHealth(journal, webhook, attempt, outcome);
  if (delivery) settle(state, journal, delivery, attempt, outcome);
  if (outcome === 'dead_letter') deadLetter(state, journal, webhook);
  return true;
}
