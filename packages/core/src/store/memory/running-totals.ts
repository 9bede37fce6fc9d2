/**
 * Running totals of delivery attempts in memory (see `DeliveryRepository.totalsBefore`): a total
 * before a minute boundary is taken from the latest earlier total plus the rollups since (minutes
 * at the ends, whole hours between), and an attempt recorded afterwards for an earlier minute is
 * added to every later total.
 */
import type { DeliveryAttempt } from '../../model.js';
import {
  addAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  MINUTE_MS,
  mergeRollup,
  type Rollup,
  spanCover,
} from '../../webhooks/metrics-rollup.js';
import { clone, type Journal, type MemoryState, type StoredTotal } from './state.js';

/** Adds a recorded attempt to its webhook's totals before the boundaries after its minute. */
export function addToLaterTotals(state: MemoryState, journal: Journal, attempt: DeliveryAttempt): void {
  const minute = floorTo(Date.parse(attempt.at), MINUTE_MS);
  for (const stored of state.totals.values()) {
    if (stored.webhook_id !== attempt.webhook_id || stored.boundary <= minute) continue;
    const before = clone(stored.rollup);
    addAttempt(stored.rollup, { ok: attempt.succeeded, latencyMs: attempt.latency_ms });
    journal?.push(() => {
      stored.rollup = before;
    });
  }
}

/** The webhook's total before `boundary`, taken now if it was not yet. */
function totalOf(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  webhookId: string,
  boundary: number,
) {
  const key = `${webhookId}|${boundary}`;
  const existing = state.totals.get(key);
  if (existing) return existing.rollup;
  let base: StoredTotal | undefined;
  for (const stored of state.totals.values()) {
    if (stored.webhook_id !== webhookId || stored.boundary >= boundary) continue;
    if (!base || stored.boundary > base.boundary) base = stored;
  }
  const rollup: Rollup = base ? clone(base.rollup) : emptyRollup();
  const span = spanCover(base ? base.boundary : Number.NEGATIVE_INFINITY, boundary);
  for (const stored of state.rollups.values()) {
    if (stored.webhook_id !== webhookId) continue;
    const inside =
      stored.unit === 'hour'
        ? span.hours !== null && stored.start >= span.hours.from && stored.start < span.hours.to
        : span.minutes.some((range) => stored.start >= range.from && stored.start < range.to);
    if (inside) mergeRollup(rollup, stored.rollup);
  }
  // A base in the same hour, not on the hour, is superseded by the new total (see the port).
  if (
    base &&
    base.boundary % HOUR_MS !== 0 &&
    floorTo(base.boundary, HOUR_MS) === floorTo(boundary, HOUR_MS)
  ) {
    const baseKey = `${webhookId}|${base.boundary}`;
    const dropped = base;
    state.totals.delete(baseKey);
    journal?.push(() => state.totals.set(baseKey, dropped));
  }
  state.totals.set(key, { organization_id: organizationId, webhook_id: webhookId, boundary, rollup });
  journal?.push(() => state.totals.delete(key));
  return rollup;
}

export function totalsBefore(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  boundaries: string[],
): Map<string, Map<string, Rollup>> {
  const result = new Map<string, Map<string, Rollup>>();
  const webhookIds = state.webhooksByOrg.get(organizationId) ?? [];
  for (const iso of boundaries) {
    const boundary = Date.parse(iso);
    const byWebhook = new Map<string, Rollup>();
    for (const webhookId of webhookIds) {
      byWebhook.set(webhookId, clone(totalOf(state, journal, organizationId, webhookId, boundary)));
    }
    result.set(iso, byWebhook);
  }
  return result;
}

/** Takes every webhook's total at `before`, then deletes the totals before it; returns how many. */
export function pruneTotals(state: MemoryState, journal: Journal, before: number): number {
  for (const [organizationId, webhookIds] of state.webhooksByOrg) {
    for (const webhookId of webhookIds) totalOf(state, journal, organizationId, webhookId, before);
  }
  let removed = 0;
  for (const [key, stored] of [...state.totals]) {
    if (stored.boundary >= before) continue;
    state.totals.delete(key);
    journal?.push(() => state.totals.set(key, stored));
    removed++;
  }
  return removed;
}
