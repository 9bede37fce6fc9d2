/**
 * The running-total rules (see `DeliveryRepository.totalsBefore`): a webhook's total before a minute
 * boundary is taken from its latest earlier total (its base) plus the rollups in between; what is in
 * between, and which bases a new total supersedes, is decided here for every store.
 */
import { floorTo, HOUR_MS, type RollupUnit, spanCover } from './rollup.js';

/** The rollups between a base total and a new boundary: minutes at the ends, whole hours between. */
export type TotalCover = ReturnType<typeof spanCover>;

/** What a new total before `boundary` adds to its base before `base` (ms; null: no base, from the start). */
export const totalCover = (base: number | null, boundary: number): TotalCover =>
  spanCover(base ?? Number.NEGATIVE_INFINITY, boundary);

/** Whether the rollup of `unit` starting at `start` (ms) is one of those `cover` adds. */
export function coversRollup(cover: TotalCover, unit: RollupUnit, start: number): boolean {
  if (unit === 'hour') return cover.hours !== null && start >= cover.hours.from && start < cover.hours.to;
  return cover.minutes.some((range) => start >= range.from && start < range.to);
}

/**
 * Whether the new total before `boundary` supersedes its base before `base` (both ms): a base in the
 * same hour and not on the hour is dropped, so a window read every minute keeps about one total per
 * webhook and hour, not one per minute.
 */
export const supersedes = (boundary: number, base: number): boolean =>
  base % HOUR_MS !== 0 && floorTo(base, HOUR_MS) === floorTo(boundary, HOUR_MS);
