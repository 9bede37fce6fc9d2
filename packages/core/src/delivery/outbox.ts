/**
 * The outbox fan-out rule: which audit webhooks an activity event is owed to, and the state its
 * delivery starts in. A store applies it in the same atomic step as the event (and `replay` when
 * it queues events again); it is decided here, once, so that every store queues the same
 * deliveries.
 */
import type { AuditWebhookStatus } from '../model.js';

/** The state a new delivery starts in. */
export type QueuedState = 'pending' | 'held';

/**
 * Event types never queued: a test goes to its own webhook at once, outside the outbox.
 */
export const UNQUEUED_EVENT_TYPES: readonly string[] = ['webhook_test'];

// An active webhook is sent to at once; a dead-lettered one keeps what it is owed until it is
// enabled again; a disabled one is owed nothing (`recover` replays from the log).
const STARTS_AS: Readonly<Record<AuditWebhookStatus, QueuedState | null>> = {
  active: 'pending',
  dead_letter: 'held',
  disabled: null,
};

/** The state of the delivery an event of `eventType` owes a webhook in `status`; null: none. */
export function outboxState(status: AuditWebhookStatus, eventType: string): QueuedState | null {
  return UNQUEUED_EVENT_TYPES.includes(eventType) ? null : STARTS_AS[status];
}

/**
 * The rule as SQL parameters, for one statement to join against: the webhook statuses that are
 * owed a delivery and, at the same index, the state it starts in (arrays for `unnest`). Given an
 * event type, both are empty when that event is never queued.
 */
export function outboxTable(eventType?: string): { statuses: AuditWebhookStatus[]; states: QueuedState[] } {
  const statuses: AuditWebhookStatus[] = [];
  const states: QueuedState[] = [];
  for (const status of Object.keys(STARTS_AS) as AuditWebhookStatus[]) {
    const state = eventType === undefined ? STARTS_AS[status] : outboxState(status, eventType);
    if (state === null) continue;
    statuses.push(status);
    states.push(state);
  }
  return { statuses, states };
}
