/**
 * Running totals of delivery attempts in memory (see `DeliveryRepository.totalsBefore`): a total
 * before a minute boundary is taken from the latest earlier total plus the rollups since (minutes
 * at the ends, whole hours between), and an attempt recorded afterwards for an earlier minute is
 * added to every later total.
 */

import { type AttemptShare, countsBefore } from '../metrics/attempt-share.js';
import { copyRollup, emptyRollup, mergeRollup } from '../metrics/rollup.js';
import { coversRollup, supersedes, totalCover } from '../metrics/running-total.js';
import type { Rollup } from '../model/rollup.js';
import { clone, deleteWhere, type Journal, type MemoryState, type StoredTotal } from './state.js';

/** Adds a recorded attempt's share to the webhook's totals that count it (see `countsBefore`). */
export function addToLaterTotals(
  state: MemoryState,
  journal: Journal,
  webhookId: string,
  share: AttemptShare,
): void {
  for (const stored of state.totals.values()) {
    if (stored.webhook_id !== webhookId || !countsBefore(share, stored.boundary)) continue;
    const before = copyRollup(stored.rollup);
    mergeRollup(stored.rollup, share.rollup);
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
  const cover = totalCover(base ? base.boundary : null, boundary);
  for (const stored of state.rollups.values()) {
    if (stored.webhook_id !== webhookId) continue;
    if (coversRollup(cover, stored.unit, stored.start)) mergeRollup(rollup, stored.rollup);
  }
  if (base && supersedes(boundary, base.boundary)) {
    const baseKey = `${webhookId}|${base.boundary}`;
    const dropped = base;
    state.totals.delete(baseKey);
    journal?.push(() => state.totals.set(baseKey, dropped));
  }
  state.totals.set(key, { organization_id: organizationId, webhook_id: webhookId, boundary, rollup });
  journal?.push(() => state.totals.delete(key));
  return rollup;
}

/** See `DeliveryRepository.totalsBefore`. */
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
  return deleteWhere(state.totals, journal, (stored) => stored.boundary < before);
}
