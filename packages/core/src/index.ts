/**
 * `@latchkey/core`: the storage-agnostic, framework-neutral core of Latchkey. Build it with
 * {@link createCore} and serve `core.handle` through an adapter.
 */
export { type ChainHead, GENESIS_HASH, sealEvent, verifyChain } from './activity.js';
export { type BackupCounts, emptyBackupCounts } from './backup/backup-stream.js';
export { RESTORE_LIMIT_DEFAULTS, type RestoreLimitsOption } from './backup/restore-limits.js';
export {
  type AuditKey,
  type Checkpoint,
  generateAuditKey,
  signCheckpoint,
  toAuditKey,
  verifyCheckpoint,
} from './checkpoint.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './client/push.js';
export { type ExportFault, type ExportVerdict, verifyActivityExport } from './client/verify-export.js';
export {
  type ConflictRecord,
  type KeyHead,
  type OverwriteRecord,
  type PlannedWrite,
  type PushChange,
  type PushPlan,
  planPush,
  versionMatches,
} from './conflicts.js';
export {
  type BootstrapOptions,
  type Core,
  type CoreLogger,
  type CoreOptions,
  createCore,
  type ExternalIdentity,
} from './core.js';
export {
  generateApiToken,
  hashToken,
  normalizeEd25519PublicKey,
  type PushAddress,
  pushSigningPayload,
  verifyClientSignature,
} from './crypto.js';
export { checkEd25519PublicKey, type Ed25519KeyVerdict, type WeakKeyReason } from './ed25519-key-check.js';
export {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  internalErrorBody,
  isLatchkeyError,
  LatchkeyError,
  serviceUnavailable,
} from './errors.js';
export {
  type CoreHeaders,
  type CoreRequest,
  type CoreResponse,
  headerValue,
  jsonResponse,
  pathOf,
} from './http.js';
export { type IdGenerator, randomId } from './ids.js';
export {
  createKeyring,
  generateKeyringKey,
  type Keyring,
  MissingKeyError,
  missingKeyId,
  needsReseal,
  open as openSealed,
  parseKeyring,
  reseal,
  seal,
  sealedKeyId,
} from './keyring.js';
export { checkKeyring, type KeyringCheck, KeyringMismatchError } from './keyring-check.js';
export type * from './model.js';
export {
  type AuthorizationResult,
  authorize,
  type Grant,
  mayActOn,
  mayChangeRole,
  PERMISSIONS,
  type Permission,
  type PermissionScope,
  type Principal,
  ROLE_PERMISSIONS,
  ROLE_RANK,
  ROLES,
  type Role,
} from './permissions.js';
export type { ReadyReport } from './ready.js';
export { type ReencryptCounts, type ReencryptOptions, reencryptAtRest } from './reencrypt.js';
export type { AnyRoute, RouteContext, RouteDefinition, RouteResult, Services } from './router.js';
export * as schemas from './schemas.js';
export { openSecretValue, sealSecretValue, secretValueContext } from './secret-values.js';
export { createMemoryStore, type MemoryStoreOptions } from './store/memory/index.js';
export { composedRequests } from './store/memory/requests.js';
export type * from './store/types.js';
export { fromWebRequest, toWebResponse } from './web.js';
export type { KeyringOption, WebhookOptions } from './webhooks/config.js';
export { lastDeliveryOf } from './webhooks/last-delivery.js';
export {
  addLatency,
  bucketValue,
  type LatencyHistogram,
  latencyBucket,
  mergeHistogram,
  percentiles,
  subtractHistogram,
} from './webhooks/latency-histogram.js';
export { type MetricsReport, metricsReport } from './webhooks/metrics-report.js';
export {
  addAttempt,
  type DeliveryFigures,
  emptyRollup,
  floorTo,
  HOUR_MS,
  LATENCY_BUCKET_KEYS,
  type LatencyBucketKey,
  latencyBucketKey,
  METRICS_WINDOWS,
  type MetricsWindow,
  MINUTE_MS,
  mergeRollup,
  type Rollup,
  recordedLatency,
  spanCover,
  subtractRollup,
  successRate,
  toFigures,
  windowCover,
  windowStart,
} from './webhooks/metrics-rollup.js';
export {
  type MetricsTimeline,
  metricsTimeline,
  TIMELINE_STEP_MS,
  type TimelineBucket,
  timelineEdges,
} from './webhooks/metrics-timeline.js';
export { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from './webhooks/prometheus.js';
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_RETRY_SCHEDULE,
  nextRetry,
  parseRetryAfter,
  parseRetrySchedule,
  type RetryDecision,
  type RetryPolicy,
} from './webhooks/retry-schedule.js';
export { newSigningSecret, type SignedDelivery, signDelivery } from './webhooks/signing.js';
export {
  type AllowHosts,
  isGlobalAddress,
  parseAllowHosts,
  type ResolveHost,
  vetTarget,
} from './webhooks/ssrf.js';
