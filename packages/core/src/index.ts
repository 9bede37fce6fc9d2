/**
 * `@latchkey/core`: the storage-agnostic, framework-neutral core of Latchkey. Build it with
 * {@link createCore} and serve `core.handle` through an adapter. What a store implementation needs
 * (ports, push plan, event sealing, outbox and rollup rules) is `@latchkey/core/store`.
 */
export { type ChainHead, verifyChain } from './activity/chain.js';
export {
  type AuditKey,
  type Checkpoint,
  generateAuditKey,
  signCheckpoint,
  toAuditKey,
  verifyCheckpoint,
} from './activity/checkpoint/checkpoint.js';
export {
  describeEventTypes,
  EVENT_TYPE_GROUPS,
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  type EventData,
  type EventType,
  type EventTypeDescription,
  isEventType,
} from './activity/event-types/index.js';
export { eventLeafHash } from './activity/merkle/hashes.js';
export { consistencyProof, inclusionProof, type NodeReader, rootAt } from './activity/merkle/proofs.js';
export { sealCommitted } from './activity/sequencer.js';
export type { BootstrapOptions } from './auth/bootstrap.js';
export type { ExternalIdentity, HostAuthenticate } from './auth/host-identity.js';
export {
  type AuthorizationResult,
  authorize,
  mayActOn,
  mayChangeRole,
  PERMISSIONS,
  type Permission,
  type PermissionScope,
  type Principal,
  ROLE_PERMISSIONS,
  ROLE_RANK,
} from './auth/permissions.js';
export { generateApiToken, hashToken } from './auth/tokens.js';
export { RESTORE_LIMIT_DEFAULTS, type RestoreLimitsOption } from './backup/restore/limits.js';
export { verifyActivityExport } from './client/node-chain-crypto.js';
export { type DeviceKeyPair, generateDeviceKeyPair, signPush, type UnsignedPush } from './client/push.js';
export type { ExportFault, ExportVerdict } from './client/verify-export.js';
export type { CoreOptions } from './config/options.js';
export { type Core, createCore } from './core.js';
export type { KeyringOption, WebhookOptions } from './delivery/config.js';
export type { StartDeliveriesOptions } from './delivery/engine/control.js';
export { filterSelects } from './delivery/event-filter.js';
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_RETRY_SCHEDULE,
  nextRetry,
  parseRetryAfter,
  parseRetrySchedule,
  type RetryDecision,
  type RetryPolicy,
} from './delivery/retry-schedule.js';
export {
  type AllowHosts,
  isGlobalAddress,
  parseAllowHosts,
  type ResolveHost,
  vetTarget,
} from './delivery/sending/ssrf.js';
export { newSigningSecret, type SignedDelivery, signDelivery } from './delivery/signing.js';
export { unknownEventTypes } from './delivery/unknown-event-types.js';
export {
  checkEd25519PublicKey,
  type Ed25519KeyVerdict,
  type WeakKeyReason,
} from './encoding/ed25519-key-check.js';
export { normalizeEd25519PublicKey } from './encoding/ed25519-public-key.js';
export {
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  internalErrorBody,
  isLatchkeyError,
  LatchkeyError,
  type LatchkeyErrorOptions,
  serviceUnavailable,
} from './errors/latchkey-error.js';
export { type HealthReport, probeResponse } from './health/probe.js';
export type {
  DeliveriesCheck,
  MigrationsCheck,
  ReadyOptions,
  ReadyReport,
  StoreCheck,
} from './health/ready.js';
export { isUnderBasePath } from './http/base-path.js';
export type { CoreDeps } from './http/core-deps.js';
export { frameworkErrorResponse } from './http/framework-error.js';
export type { AnyRoute, RouteContext, RouteDefinition, RouteResult } from './http/router.js';
export { fromWebRequest, toWebResponse } from './http/web.js';
export { checkKeyring, type KeyringCheck, KeyringMismatchError } from './keyring/check.js';
export { secretValueContext } from './keyring/contexts.js';
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
} from './keyring/keyring.js';
export { type ReencryptCounts, type ReencryptOptions, reencryptAtRest } from './keyring/reencrypt.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory/index.js';
export { bucketValue, percentiles } from './metrics/latency-histogram.js';
export { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from './metrics/prometheus.js';
export { type MetricsReport, metricsReport } from './metrics/report.js';
export {
  type DeliveryFigures,
  METRICS_WINDOWS,
  type MetricsWindow,
  successRate,
  toFigures,
  windowCover,
  windowStart,
} from './metrics/rollup.js';
export {
  type MetricsTimeline,
  metricsTimeline,
  TIMELINE_STEP_MS,
  type TimelineBucket,
  timelineEdges,
} from './metrics/timeline.js';
export { type BackupCounts, emptyBackupCounts } from './model/backup-format.js';
export {
  type CoreHeaders,
  type CoreRequest,
  type CoreResponse,
  headerValue,
  jsonResponse,
  pathOf,
} from './model/core-request.js';
export type * from './model/model.js';
export { type Grant, ROLES, type Role } from './model/roles.js';
export {
  LATENCY_BUCKET_KEYS,
  type LatencyBucketKey,
  type LatencyHistogram,
  type Rollup,
} from './model/rollup.js';
export type { TreeHead } from './model/tree.js';
export type { WebhookLimit, WebhookLimits } from './model/webhook-limits.js';
export { type IdGenerator, randomId } from './runtime/ids.js';
export type { CoreLogger } from './runtime/logger.js';
export * as schemas from './schemas/api.js';
export { type PushAddress, pushSigningPayload, verifyClientSignature } from './secrets/signatures.js';
export { openSecretValue, sealSecretValue } from './secrets/values.js';
export type { LatchkeyStore, StoreStatus, StoreTransaction } from './store/types.js';
