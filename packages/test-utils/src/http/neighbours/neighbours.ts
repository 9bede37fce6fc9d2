/**
 * The noisy-neighbour tests: another organization's p99 while one organization restores, delivers
 * over full mTLS handshakes, or does all that the per-organization bounds are for at once. They
 * time requests, so they run apart from the rest of the suite (`neighbours` of
 * `describeHttpConformance`), on a machine nothing else is using.
 */

import { describeHandshakeNeighbourTests } from '../audit-webhooks/receiver-handshakes.js';
import type { ConformanceContext } from '../harness/context.js';
import { describeNoisyNeighbourTests } from './noisy-neighbour.js';
import { describeRestoreNeighbourTests } from './restore-neighbours.js';

/** Registers the noisy-neighbour tests; `allAtOnceP99Ms` bounds the one where an owner does everything. */
export function describeNeighbourTests(ctx: ConformanceContext, allAtOnceP99Ms?: number): void {
  describeRestoreNeighbourTests(ctx);
  describeHandshakeNeighbourTests(ctx);
  describeNoisyNeighbourTests(ctx, allAtOnceP99Ms);
}
