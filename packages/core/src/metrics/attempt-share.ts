/**
 * The rollup rule: what one recorded attempt adds to its webhook's figures. A store applies it when
 * it records the attempt (to the attempt's minute and hour rollups, and to every running total
 * taken before a later minute boundary); it is decided here, once, and the stores only persist it.
 */
import type { DeliveryAttempt } from '../model/model.js';
import type { LatencyBucketKey, Rollup } from '../model/rollup.js';
import { latencyBucket } from './latency-histogram.js';
import {
  addAttempt,
  emptyRollup,
  floorTo,
  latencyBucketKey,
  mergeRollup,
  ROLLUP_UNITS,
  type RollupUnit,
  recordedLatency,
} from './rollup.js';

/** What one attempt adds, and where. */
export interface AttemptShare {
  /** The start (ms) of the rollup it joins, per unit. */
  starts: Record<RollupUnit, number>;
  /** A rollup of this one attempt: what it adds to each rollup and running total it joins. */
  rollup: Rollup;
  /** The one `latency_buckets` key it raises by one. */
  bucket: LatencyBucketKey;
  /** The one fine histogram bucket it raises by one. */
  histogramBucket: string;
}

/** What `attempt` adds to its webhook's rollups and running totals. */
export function attemptShare(
  attempt: Pick<DeliveryAttempt, 'at' | 'succeeded' | 'latency_ms'>,
): AttemptShare {
  const at = Date.parse(attempt.at);
  const ms = recordedLatency(attempt.latency_ms);
  const rollup = emptyRollup();
  addAttempt(rollup, { ok: attempt.succeeded, latencyMs: ms });
  return {
    starts: { minute: floorTo(at, ROLLUP_UNITS.minute), hour: floorTo(at, ROLLUP_UNITS.hour) },
    rollup,
    bucket: latencyBucketKey(ms),
    histogramBucket: String(latencyBucket(ms)),
  };
}

/**
 * Whether the running total before `boundary` (a minute boundary, ms) counts the attempt: every
 * total before a boundary after the attempt's minute, including those taken before it was recorded.
 */
export const countsBefore = (share: AttemptShare, boundary: number): boolean =>
  boundary > share.starts.minute;

/** Attempts' shares summed per webhook and rollup: what a batch adds to one rollup, in one upsert. */
export interface SummedShare {
  webhookId: string;
  organizationId: string;
  unit: RollupUnit;
  /** The rollup's start (ms). */
  start: number;
  rollup: Rollup;
}

/**
 * The shares of `attempts` summed per (webhook, minute) and per (webhook, hour), in the order each
 * sum first appears. A store recording a batch adds each sum to its rollup once; the minute sums are
 * also what the batch adds to the running totals (each to the totals before a boundary after it).
 */
export function sumShares(
  attempts: readonly Pick<
    DeliveryAttempt,
    'organization_id' | 'webhook_id' | 'at' | 'succeeded' | 'latency_ms'
  >[],
): SummedShare[] {
  const sums = new Map<string, SummedShare>();
  for (const attempt of attempts) {
    const share = attemptShare(attempt);
    for (const unit of ['minute', 'hour'] as const) {
      const start = share.starts[unit];
      const key = `${attempt.webhook_id}\n${unit}\n${start}`;
      let sum = sums.get(key);
      if (!sum) {
        sum = {
          webhookId: attempt.webhook_id,
          organizationId: attempt.organization_id,
          unit,
          start,
          rollup: emptyRollup(),
        };
        sums.set(key, sum);
      }
      mergeRollup(sum.rollup, share.rollup);
    }
  }
  return [...sums.values()];
}
