/**
 * The outbox fan-out rule: which audit webhooks an activity event is owed to, and the state its
 * delivery starts in. A store applies it in the same atomic step as the event (and `replay` when
 * it queues events again); it is decided here, once, so that every store queues the same
 * deliveries.
 */
import type { AuditWebhook, AuditWebhookStatus } from '../model/model.js';
import { filterSelects, likePatterns, patternsSelecting } from './event-filter.js';

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

/**
 * The state of the delivery an event of `eventType` owes a webhook in `status`; null: none. Without
 * `filter`, by status alone; with it, only when the webhook's event-type filter selects the type.
 */
export function outboxState(
  status: AuditWebhookStatus,
  eventType: string,
  filter: readonly string[] = [],
): QueuedState | null {
  if (UNQUEUED_EVENT_TYPES.includes(eventType) || !filterSelects(filter, eventType)) return null;
  return STARTS_AS[status];
}

/** {@link outboxState} for a webhook: its status and its event-type filter. */
export function owedState(
  webhook: Pick<AuditWebhook, 'status' | 'event_types'>,
  eventType: string,
): QueuedState | null {
  return outboxState(webhook.status, eventType, webhook.event_types);
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

/**
 * The filter half of the rule as SQL parameters. `selecting`: for a new event of `eventType`, the
 * filter entries that select it (a webhook is owed the event when its filter is empty or overlaps
 * this list). `like`: for replaying the log to a webhook with `filter`, the `LIKE` patterns an
 * event's type must match one of.
 */
export const outboxFilterSql = {
  selecting: (eventType: string): string[] => patternsSelecting(eventType),
  like: (filter: readonly string[]): string[] => likePatterns(filter),
};
