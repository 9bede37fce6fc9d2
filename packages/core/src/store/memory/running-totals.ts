/**
 * Running totals of delivery attempts in memory (see `DeliveryRepository.totalsBefore`): a total
 * before an hour boundary is taken from the latest earlier total plus the hour rollups since, and
 * an attempt recorded afterwards for an earlier hour is added to every later total.
 */
import type { DeliveryAttempt } from '../../model.js';
import { addAttempt, emptyRollup, HOUR_MS, mergeRollup, type Rollup } from '../../webhooks/metrics-rollup.js';
import { clone, type Journal, type MemoryState, type StoredTotal } from './state.js';

/** Adds a recorded attempt to its webhook's totals before the hour boundaries after its hour. */
export function addToLaterTotals(state: MemoryState, journal: Journal, attempt: DeliveryAttempt): void {
  const hour = Math.floor(Date.parse(attempt.at) / HOUR_MS) * HOUR_MS;
  for (const stored of state.totals.values()) {
    if (stored.webhook_id !== attempt.webhook_id || stored.hour <= hour) continue;
    const before = clone(stored.rollup);
    addAttempt(stored.rollup, { ok: attempt.succeeded, latencyMs: attempt.latency_ms });
    journal?.push(() => {
      stored.rollup = before;
    });
  }
}

/** The webhook's total before `hour`, taken now if it was not yet. */
function totalOf(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  webhookId: string,
  hour: number,
) {
  const key = `${webhookId}|${hour}`;
  const existing = state.totals.get(key);
  if (existing) return existing.rollup;
  let base: StoredTotal | undefined;
  for (const stored of state.totals.values()) {
    if (stored.webhook_id === webhookId && stored.hour < hour && (!base || stored.hour > base.hour))
      base = stored;
  }
  const rollup: Rollup = base ? clone(base.rollup) : emptyRollup();
  for (const stored of state.rollups.values()) {
    if (stored.webhook_id !== webhookId || stored.unit !== 'hour' || stored.start >= hour) continue;
    if (base && stored.start < base.hour) continue;
    mergeRollup(rollup, stored.rollup);
  }
  state.totals.set(key, { organization_id: organizationId, webhook_id: webhookId, hour, rollup });
  journal?.push(() => state.totals.delete(key));
  return rollup;
}

export function totalsBefore(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  hours: string[],
): Map<string, Map<string, Rollup>> {
  const result = new Map<string, Map<string, Rollup>>();
  const webhookIds = state.webhooksByOrg.get(organizationId) ?? [];
  for (const iso of hours) {
    const hour = Date.parse(iso);
    const byWebhook = new Map<string, Rollup>();
    for (const webhookId of webhookIds) {
      byWebhook.set(webhookId, clone(totalOf(state, journal, organizationId, webhookId, hour)));
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
    if (stored.hour >= before) continue;
    state.totals.delete(key);
    journal?.push(() => state.totals.set(key, stored));
    removed++;
  }
  return removed;
}
