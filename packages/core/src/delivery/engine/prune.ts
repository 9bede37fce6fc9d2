/**
 * Retention: attempts past their days are deleted in batches, rollups past theirs on an hour
 * boundary; the running loop does it once per `pruneIntervalMs`.
 */
import { describeError } from '../../errors/describe-error.js';
import { floorTo, HOUR_MS } from '../../metrics/rollup.js';
import type { EngineSettings } from './options.js';

/** Attempts deleted per statement when pruning. */
const PRUNE_BATCH = 5_000;

const DAY_MS = 86_400_000;

type PruneSettings = Pick<
  EngineSettings,
  'store' | 'now' | 'logger' | 'attemptRetentionDays' | 'rollupRetentionDays' | 'pruneIntervalMs'
>;

/** Deletes what is past its retention, and knows when it is due again. */
export interface Pruner {
  /** Deletes attempts and rollups past their retention; returns how many of each. */
  prune(): Promise<{ attempts: number; rollups: number }>;
  /** Prunes when `pruneIntervalMs` has passed since the last time, logging a failure. */
  pruneIfDue(): Promise<void>;
}

/** A pruner; `stopped()` ends a long run of attempt batches early. */
export function createPruner(settings: PruneSettings, stopped: () => boolean): Pruner {
  const { store, now } = settings;
  let lastPrune = Number.NEGATIVE_INFINITY;
  async function prune(): Promise<{ attempts: number; rollups: number }> {
    const attemptsBefore = new Date(now() - settings.attemptRetentionDays * DAY_MS).toISOString();
    let attempts = 0;
    for (;;) {
      const deleted = await store.deliveries.pruneAttempts(attemptsBefore, PRUNE_BATCH);
      attempts += deleted;
      if (deleted < PRUNE_BATCH || stopped()) break;
    }
    // On an hour boundary: the running totals kept at the cutoff are totals before an hour.
    const rollups = await store.deliveries.pruneRollups(
      new Date(floorTo(now() - settings.rollupRetentionDays * DAY_MS, HOUR_MS)).toISOString(),
    );
    return { attempts, rollups };
  }
  async function pruneIfDue(): Promise<void> {
    if (now() - lastPrune < settings.pruneIntervalMs) return;
    lastPrune = now();
    await prune().catch((error: unknown) =>
      settings.logger.error('pruning old attempts failed', { error: describeError(error) }),
    );
  }
  return { prune, pruneIfDue };
}
