/**
 * `@latchkey/core/store`: what a store implementation needs, and nothing an app does. The
 * repository ports (each saying what must be atomic) and the records they keep; the rules a store
 * applies but does not decide: the push plan, event sealing, the outbox fan-out, what an attempt
 * adds to the rollups and running totals, and the rollup math; the traceparent a new delivery keeps;
 * and the error a store throws when its database cannot serve. A store only persists what these decide.
 */
export { type ChainHead, GENESIS_HASH, sealEvent } from '../activity/chain.js';
export { eventLeafHash } from '../activity/merkle/hashes.js';
export { type NodeReader, rootAt } from '../activity/merkle/proofs.js';
export { extendTree, treeHeadAt } from '../activity/merkle/stored-tree.js';
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
export { lastDeliveryOf } from '../delivery/last-delivery.js';
export {
  outboxFilterSql,
  outboxState,
  outboxTable,
  owedState,
  type QueuedState,
  UNQUEUED_EVENT_TYPES,
} from '../delivery/outbox.js';
export { secondOf, webhookLimit } from '../delivery/webhook-limits.js';
export { isLatchkeyError, LatchkeyError, serviceUnavailable } from '../errors/latchkey-error.js';
export { composedRequests } from '../memory/requests.js';
export {
  type AttemptShare,
  attemptShare,
  countsBefore,
  type SummedShare,
  sumShares,
} from '../metrics/attempt-share.js';
export {
  addLatency,
  latencyBucket,
  mergeHistogram,
  subtractHistogram,
} from '../metrics/latency-histogram.js';
export {
  addAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  latencyBucketKey,
  MINUTE_MS,
  mergeRollup,
  ROLLUP_UNITS,
  type RollupUnit,
  recordedLatency,
  spanCover,
  subtractRollup,
} from '../metrics/rollup.js';
export { coversRollup, supersedes, type TotalCover, totalCover } from '../metrics/running-total.js';
export type * from '../model/model.js';
export type {
  ConflictRecord,
  KeyHead,
  OverwriteRecord,
  PlannedWrite,
  PushChange,
  PushPlan,
} from '../model/push-plan.js';
export type { Grant, Role } from '../model/roles.js';
export type { LatencyBucketKey, LatencyHistogram, Rollup } from '../model/rollup.js';
export type { MetricsSource, RollupSource } from '../model/rollup-source.js';
export type { NodeAddress, TreeHead } from '../model/tree.js';
export type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';
export { planPush, versionMatches } from '../secrets/push-plan.js';
export {
  DEFAULT_SECRET_VERSIONS_KEPT,
  prunedThrough,
  versionRows,
} from '../secrets/versions.js';
export { causingTraceparent } from '../telemetry/tracing.js';
export type * from './types.js';
