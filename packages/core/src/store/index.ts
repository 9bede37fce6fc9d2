/**
 * `@latchkey/core/store`: what a store implementation needs, and nothing an app does. The
 * repository ports (each saying what must be atomic) and the records they keep; the rules a store
 * applies but does not decide: the push plan and the push's event, event sealing, the outbox
 * fan-out, what an attempt adds to the rollups and running totals, and the rollup math; the
 * traceparent a new delivery keeps; and the error a store throws when its database cannot serve. A
 * store only persists what these decide.
 */
export { type ChainHead, GENESIS_HASH, sealEvent } from '../activity/chain.js';
export { eventLeafHash } from '../activity/merkle/hashes.js';
export { type NodeReader, rootAt } from '../activity/merkle/proofs.js';
export type { NodeAddress } from '../activity/merkle/ranges.js';
export { extendTree, type TreeHead, treeHeadAt } from '../activity/merkle/tree-head.js';
export {
  appendLeaves,
  EMPTY_TREE,
  packFrontier,
  type StoredNode,
  type TreeState,
  treeRoot,
  unpackFrontier,
} from '../activity/merkle/tree-state.js';
export { type SealedBatch, sealBatch } from '../activity/seal-batch.js';
export type { Grant, Role } from '../auth/permissions.js';
export { lastDeliveryOf } from '../delivery/last-delivery.js';
export {
  outboxFilterSql,
  outboxState,
  outboxTable,
  owedState,
  type QueuedState,
  UNQUEUED_EVENT_TYPES,
} from '../delivery/outbox.js';
export {
  secondOf,
  type WebhookLimit,
  type WebhookLimits,
  webhookLimit,
} from '../delivery/webhook-limits.js';
export { isLatchkeyError, LatchkeyError, serviceUnavailable } from '../errors/latchkey-error.js';
export {
  type AttemptShare,
  attemptShare,
  countsBefore,
  type SummedShare,
  sumShares,
} from '../metrics/attempt-share.js';
export {
  addLatency,
  type LatencyHistogram,
  latencyBucket,
  mergeHistogram,
  subtractHistogram,
} from '../metrics/latency-histogram.js';
export {
  addAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  type LatencyBucketKey,
  latencyBucketKey,
  MINUTE_MS,
  mergeRollup,
  ROLLUP_UNITS,
  type Rollup,
  type RollupUnit,
  recordedLatency,
  spanCover,
  subtractRollup,
} from '../metrics/rollup.js';
export type { MetricsSource, RollupSource } from '../metrics/rollup-source.js';
export { coversRollup, supersedes, type TotalCover, totalCover } from '../metrics/running-total.js';
export type * from '../model.js';
export { type PushEventTemplate, type PushMode, pushEvent } from '../secrets/push-event.js';
export {
  type ConflictRecord,
  type KeyHead,
  type OverwriteRecord,
  type PlannedWrite,
  type PushChange,
  type PushPlan,
  planPush,
  versionMatches,
} from '../secrets/push-plan.js';
export {
  DEFAULT_SECRET_VERSIONS_KEPT,
  prunedThrough,
  versionRows,
} from '../secrets/versions.js';
export { causingTraceparent } from '../telemetry/tracing.js';
export { composedRequests } from './memory/requests.js';
export type * from './types.js';
