/** The minute and hour rollups of delivery attempts in memory. */
import type { AttemptShare } from '../metrics/attempt-share.js';
import { copyRollup, emptyRollup, mergeRollup, ROLLUP_UNITS, type RollupUnit } from '../metrics/rollup.js';
import type { Rollup } from '../model/rollup.js';
import { pruneTotals } from './running-totals.js';
import { deleteWhere, type Journal, type MemoryState } from './state.js';

/** Adds an attempt's share to its webhook's minute and hour rollups, with the undo. */
export function rollUp(
  state: MemoryState,
  journal: Journal,
  attempt: { organization_id: string; webhook_id: string },
  share: AttemptShare,
): void {
  for (const unit of Object.keys(ROLLUP_UNITS) as RollupUnit[]) {
    const start = share.starts[unit];
    const key = `${attempt.webhook_id}|${unit}|${start}`;
    const existing = state.rollups.get(key);
    const before = existing ? copyRollup(existing.rollup) : null;
    const stored = existing ?? {
      organization_id: attempt.organization_id,
      webhook_id: attempt.webhook_id,
      unit,
      start,
      rollup: emptyRollup(),
    };
    mergeRollup(stored.rollup, share.rollup);
    state.rollups.set(key, stored);
    journal?.push(() => {
      if (before) stored.rollup = before;
      else state.rollups.delete(key);
    });
  }
}

/** See `DeliveryRepository.minuteRollups`. */
export function minuteRollups(
  state: MemoryState,
  organizationId: string,
  ranges: { from: string; to: string }[],
): Map<string, Rollup> {
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
}

/** See `DeliveryRepository.pruneRollups`. */
export function pruneRollups(state: MemoryState, journal: Journal, before: string): number {
  const cutoff = Date.parse(before);
  // The totals at the cutoff first: later totals are taken from them, not from deleted rollups.
  const totals = pruneTotals(state, journal, cutoff);
  return totals + deleteWhere(state.rollups, journal, (stored) => stored.start < cutoff);
}
