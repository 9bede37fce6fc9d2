import type { Delivery, DeliveryAttempt } from '../../model.js';
import { lastDeliveryOf } from '../../webhooks/last-delivery.js';
import {
  addAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  MINUTE_MS,
  mergeRollup,
  type Rollup,
} from '../../webhooks/metrics-rollup.js';
import type { ClaimedDelivery, DeliveryRepository } from '../ports/deliveries.js';
import { addToLaterTotals, pruneTotals, totalsBefore } from './running-totals.js';
import { clone, type Journal, type MemoryState, newDelivery, notifyDeliveryWatchers } from './state.js';

/** The delivery outbox, attempt log and rollups in memory. */
export function memoryDeliveries(state: MemoryState, journal: Journal): DeliveryRepository {
  /** Adds an attempt to its webhook's minute and hour rollups, with the undo. */
  function rollUp(attempt: DeliveryAttempt) {
    const at = Date.parse(attempt.at);
    for (const [unit, size] of [
      ['minute', MINUTE_MS],
      ['hour', HOUR_MS],
    ] as const) {
      const start = floorTo(at, size);
      const key = `${attempt.webhook_id}|${unit}|${start}`;
      const existing = state.rollups.get(key);
      const before = existing ? clone(existing.rollup) : null;
      const stored = existing ?? {
        organization_id: attempt.organization_id,
        webhook_id: attempt.webhook_id,
        unit,
        start,
        rollup: emptyRollup(),
      };
      addAttempt(stored.rollup, { ok: attempt.succeeded, latencyMs: attempt.latency_ms });
      state.rollups.set(key, stored);
      journal?.push(() => {
        if (before) stored.rollup = before;
        else state.rollups.delete(key);
      });
    }
  }

  return {
    async claim({ now, limit, leaseUntil }) {
      // The `limit` oldest due, in one pass (no sort of the whole outbox per claim).
      const due: Delivery[] = [];
      for (const d of state.deliveries.values()) {
        if (
          d.state !== 'pending' ||
          d.next_attempt_at > now ||
          (d.lease_until !== null && d.lease_until > now) ||
          state.webhooks.get(d.webhook_id)?.status !== 'active'
        ) {
          continue;
        }
        if (due.length === limit && !(d.next_attempt_at < due[due.length - 1]!.next_attempt_at)) continue;
        let at = due.length;
        while (at > 0 && d.next_attempt_at < due[at - 1]!.next_attempt_at) at--;
        due.splice(at, 0, d);
        if (due.length > limit) due.pop();
      }
      const claimed: ClaimedDelivery[] = [];
      for (const delivery of due) {
        const previous = delivery.lease_until;
        delivery.lease_until = leaseUntil;
        journal?.push(() => {
          delivery.lease_until = previous;
        });
        const webhook = state.webhooks.get(delivery.webhook_id)!;
        const event = state.events.get(delivery.organization_id)![delivery.event_seq - 1]!;
        claimed.push({
          delivery: { ...delivery },
          webhook: {
            id: webhook.id,
            organization_id: webhook.organization_id,
            name: webhook.name,
            url: webhook.url,
            secret_sealed: webhook.secret_sealed,
          },
          eventJson: JSON.stringify(event),
          eventType: event.type,
        });
      }
      return claimed;
    },

    async record(record, lease) {
      const { attempt, outcome } = record;
      const delivery = attempt.delivery_id === null ? null : state.deliveries.get(attempt.delivery_id);
      if (outcome !== 'test' && (!delivery || delivery.lease_until !== lease)) return false;
      const webhook = state.webhooks.get(attempt.webhook_id);
      if (!webhook || webhook.organization_id !== attempt.organization_id) return false;
      const list = state.attempts.get(attempt.webhook_id) ?? [];
      list.push(clone(attempt));
      state.attempts.set(attempt.webhook_id, list);
      journal?.push(() => list.pop());
      rollUp(attempt);
      addToLaterTotals(state, journal, attempt);

      const webhookBefore = clone(webhook);
      journal?.push(() => Object.assign(webhook, webhookBefore));
      webhook.last_delivery = lastDeliveryOf(attempt);
      if (attempt.error) webhook.last_error = clone(attempt.error);
      if (outcome === 'delivered') webhook.consecutive_failures = 0;
      else if (outcome !== 'test') webhook.consecutive_failures++;

      if (delivery) {
        const deliveryBefore = { ...delivery };
        journal?.push(() => {
          Object.assign(delivery, deliveryBefore);
          state.deliveries.set(delivery.id, delivery);
        });
        delivery.attempts++;
        delivery.lease_until = null;
        if (outcome === 'delivered') state.deliveries.delete(delivery.id);
        else if (outcome === 'retry') delivery.next_attempt_at = attempt.next_attempt_at ?? attempt.at;
        else if (outcome === 'dead_letter') delivery.state = 'held';
      }
      if (outcome === 'dead_letter') {
        webhook.status = 'dead_letter';
        for (const other of state.deliveries.values()) {
          if (other.webhook_id !== webhook.id || other.state !== 'pending') continue;
          const before = { ...other };
          other.state = 'held';
          journal?.push(() => Object.assign(other, before));
        }
      }
      return true;
    },

    async attempts(organizationId, webhookId, { limit, beforeId }) {
      const webhook = state.webhooks.get(webhookId);
      if (!webhook || webhook.organization_id !== organizationId) return { attempts: [], next: null };
      const list = state.attempts.get(webhookId) ?? [];
      let end = list.length;
      if (beforeId !== undefined) {
        const index = list.findIndex((a) => a.id === beforeId);
        end = index === -1 ? 0 : index;
      }
      const page = list.slice(Math.max(0, end - limit), end).reverse();
      return { attempts: page.map(clone), next: end - limit > 0 ? page[page.length - 1]!.id : null };
    },

    async replay(organizationId, webhookId, since, at) {
      const webhook = state.webhooks.get(webhookId);
      if (!webhook || webhook.organization_id !== organizationId || webhook.status === 'disabled') return 0;
      const owed = new Set(
        [...state.deliveries.values()].filter((d) => d.webhook_id === webhookId).map((d) => d.event_id),
      );
      let queued = 0;
      for (const event of state.events.get(organizationId) ?? []) {
        if (event.occurred_at < since || event.type === 'webhook_test' || owed.has(event.id)) continue;
        const delivery = newDelivery(
          webhook,
          event.id,
          event.seq,
          webhook.status === 'active' ? 'pending' : 'held',
          at,
        );
        state.deliveries.set(delivery.id, delivery);
        journal?.push(() => state.deliveries.delete(delivery.id));
        queued++;
      }
      if (queued > 0 && webhook.status === 'active') notifyDeliveryWatchers(state);
      return queued;
    },

    async minuteRollups(organizationId, ranges) {
      const minutes = ranges.map((r) => ({ from: Date.parse(r.from), to: Date.parse(r.to) }));
      const merged = new Map<string, Rollup>();
      for (const stored of state.rollups.values()) {
        if (stored.organization_id !== organizationId || stored.unit !== 'minute') continue;
        if (!minutes.some((r) => stored.start >= r.from && stored.start < r.to)) continue;
        const total = merged.get(stored.webhook_id) ?? emptyRollup();
        mergeRollup(total, stored.rollup);
        merged.set(stored.webhook_id, total);
      }
      return merged;
    },

    async totalsBefore(organizationId, hours) {
      return totalsBefore(state, journal, organizationId, hours);
    },

    async pruneAttempts(before, batch) {
      let removed = 0;
      for (const [webhookId, list] of state.attempts) {
        // Oldest first: the old attempts are at the front.
        let n = 0;
        while (n < list.length && list[n]!.at < before && removed + n < batch) n++;
        if (n === 0) continue;
        state.attempts.set(webhookId, list.slice(n));
        journal?.push(() => state.attempts.set(webhookId, list));
        removed += n;
        if (removed >= batch) break;
      }
      return removed;
    },

    async pruneRollups(before) {
      const cutoff = Date.parse(before);
      // The totals at the cutoff first: later totals are taken from them, not from deleted rollups.
      let removed = pruneTotals(state, journal, cutoff);
      for (const [key, stored] of [...state.rollups]) {
        if (stored.start >= cutoff) continue;
        state.rollups.delete(key);
        journal?.push(() => state.rollups.set(key, stored));
        removed++;
      }
      return removed;
    },

    async count(organizationId, webhookId, wanted) {
      let n = 0;
      for (const d of state.deliveries.values()) {
        if (d.organization_id === organizationId && d.webhook_id === webhookId && d.state === wanted) n++;
      }
      return n;
    },
  };
}
