/**
 * `@latchkey/core/store`: what a store implementation needs, and nothing an app does. The
 * repository ports (each saying what must be atomic) and the records they keep; the rules a store
 * applies but does not decide: the push plan and the push's event, event sealing, the outbox fan-out, what an attempt
 * adds to the rollups and running totals, and the rollup math; the traceparent a new delivery keeps;
 * and the error a store throws when its database cannot serve. A store only persists what these decide.
 * Beside them, what core reads a store's data through, which a store's own tests and the shared
 * conformance suites call to check that data as core will: `sealCommitted` (how a push waits for
 * `activity.sealPending`), the Merkle proofs over the stored nodes, and the metrics report and
 * timeline over the rollups.
 */
export { type ChainHead, GENESIS_HASH, sealEvent } from '../activity/chain.js';
export { eventLeafHash } from '../activity/merkle/hashes.js';
export { consistencyProof, inclusionProof, type NodeReader, rootAt } from '../activity/merkle/proofs.js';
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
export { sealCommitted } from '../activity/sequencer.js';
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
export { type MetricsReport, metricsReport } from '../metrics/report.js';
export {
  addAttempt,
  type DeliveryFigures,
  emptyRollup,
  floorTo,
  HOUR_MS,
  latencyBucketKey,
  METRICS_WINDOWS,
  type MetricsWindow,
  MINUTE_MS,
  mergeRollup,
  ROLLUP_UNITS,
  type RollupUnit,
  recordedLatency,
  spanCover,
  subtractRollup,
  windowCover,
  windowStart,
} from '../metrics/rollup.js';
export { coversRollup, supersedes, type TotalCover, totalCover } from '../metrics/running-total.js';
export {
  type MetricsTimeline,
  metricsTimeline,
  TIMELINE_STEP_MS,
  type TimelineBucket,
} from '../metrics/timeline.js';
export type {
  ApprovalPolicy,
  ChangeRequest,
  ChangeRequestApproval,
  ChangeRequestChange,
  ChangeRequestStatus,
  PolicyRole,
} from '../model/change-request.js';
export type {
  ActivityDraft,
  ActivityEvent,
  Actor,
  ApiToken,
  AuditWebhook,
  AuditWebhookStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryError,
  Device,
  Environment,
  LastDelivery,
  Member,
  Organization,
  Project,
  SecretVersion,
  SignatureScheme,
  WebhookClientCertificate,
  WebhookHeader,
  WebhookSigningKey,
} from '../model/model.js';
export type { PortalCapability, PortalSession } from '../model/portal-session.js';
export type { PushEventTemplate, PushMode } from '../model/push-event.js';
export type * from '../model/push-plan.js';
export type { Grant, Role } from '../model/roles.js';
export {
  LATENCY_BUCKET_KEYS,
  type LatencyBucketKey,
  type LatencyHistogram,
  type Rollup,
} from '../model/rollup.js';
export type { MetricsSource, RollupSource } from '../model/rollup-source.js';
export type { NodeAddress, TreeHead } from '../model/tree.js';
export type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';
export type { WorkloadAction, WorkloadIdentity, WorkloadToken } from '../model/workload.js';
export { pushEvent } from '../secrets/push-event.js';
export { planPush, versionMatches } from '../secrets/push-plan.js';
export { DEFAULT_SECRET_VERSIONS_KEPT, prunedThrough, versionRows } from '../secrets/versions.js';
// Every port and every record the ports name.
export type * from '../store/types.js';
export { causingTraceparent } from '../telemetry/tracing.js';
