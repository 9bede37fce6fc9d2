/**
 * Replays of an organization's events to one webhook, in memory, by the outbox fan-out rule: a
 * cursor over the events the replay covers, moved on a batch at a time (see
 * `DeliveryRepository.replay` and `advanceReplays`).
 */
import { owedState } from '../delivery/outbox.js';
import type { AuditWebhook } from '../model/model.js';
import type { ReplayPace, ReplayRange } from '../store/ports/deliveries.js';
import { journaledDelete, journaledSet } from './journaled.js';
import {
  type Journal,
  type MemoryState,
  newDelivery,
  notifyDeliveryWatchers,
  queueDelivery,
} from './state.js';

/** A replay under way, as the state keeps it. */
type ReplayCursor = MemoryState['replays'] extends Map<string, infer C> ? C : never;

/** The events of `cursor`'s range from `next_seq` on that `webhook` is owed and does not hold. */
function* owedEvents(state: MemoryState, webhook: AuditWebhook, cursor: ReplayCursor) {
  const owed = new Set([...state.deliveries.ofWebhook(webhook.id)].map((d) => d.event_id));
  for (const event of state.events.get(cursor.organization_id) ?? []) {
    if (event.seq < cursor.next_seq || event.seq > cursor.last_seq) continue;
    if (event.occurred_at < cursor.since) continue;
    if (cursor.until !== undefined && event.occurred_at >= cursor.until) continue;
    if (owed.has(event.id) || owedState(webhook, event.type) === null) continue;
    yield event;
  }
}

/** Whether anything of the webhook is due at `at`: a replay waits until its due queue is empty. */
function hasDue(state: MemoryState, webhookId: string, at: string): boolean {
  let due = false;
  state.deliveries.eachDue(webhookId, at, (delivery) => {
    due = delivery.state === 'pending';
    return !due;
  });
  return due;
}

/**
 * Moves one replay on by at most `batch` events; how many it queued. Only once the webhook has
 * nothing due, but for the first batch (`first`), queued as the replay starts.
 */
function advance(
  state: MemoryState,
  journal: Journal,
  webhookId: string,
  at: string,
  batch: number,
  first = false,
): number {
  const cursor = state.replays.get(webhookId)!;
  const webhook = state.webhooks.get(webhookId);
  if (!webhook || webhook.status === 'disabled') {
    journaledDelete(state.replays, webhookId, journal);
    return 0;
  }
  if (webhook.status !== 'active' || (!first && hasDue(state, webhookId, at))) return 0;
  let queued = 0;
  let last = cursor.next_seq - 1;
  for (const event of owedEvents(state, webhook, cursor)) {
    if (queued === batch) break;
    queueDelivery(state, journal, newDelivery(webhook, event.id, event.seq, 'pending', at));
    queued++;
    last = event.seq;
  }
  if (queued < batch || last >= cursor.last_seq) journaledDelete(state.replays, webhookId, journal);
  else journaledSet(state.replays, webhookId, { ...cursor, next_seq: last + 1 }, journal);
  if (queued > 0) notifyDeliveryWatchers(state);
  return queued;
}

/** See `DeliveryRepository.replay`. */
export function startReplay(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  webhookId: string,
  range: ReplayRange,
  at: string,
  pace: ReplayPace,
): number | 'limit' | 'busy' {
  const webhook = state.webhooks.get(webhookId);
  if (!webhook || webhook.organization_id !== organizationId || webhook.status === 'disabled') return 0;
  if (state.replays.has(webhookId)) return 'busy';
  const events = state.events.get(organizationId) ?? [];
  const cursor: ReplayCursor = {
    organization_id: organizationId,
    since: range.since,
    ...(range.until === undefined ? {} : { until: range.until }),
    next_seq: 0,
    last_seq: events.at(-1)?.seq ?? 0,
  };
  let count = 0;
  let first = 0;
  for (const event of owedEvents(state, webhook, cursor)) {
    if (++count > pace.maxEvents) return 'limit';
    if (count === 1) first = event.seq;
  }
  if (count === 0) return 0;
  journaledSet(state.replays, webhookId, { ...cursor, next_seq: first }, journal);
  advance(state, journal, webhookId, at, pace.batch, true);
  return count;
}

/** See `DeliveryRepository.advanceReplays`. */
export function advanceReplays(state: MemoryState, journal: Journal, at: string, batch: number): number {
  let queued = 0;
  for (const webhookId of [...state.replays.keys()]) queued += advance(state, journal, webhookId, at, batch);
  return queued;
}
