/**
 * `@latchkey/core`: the app API. Build a core with {@link createCore} and serve `core.handle` through
 * an adapter; this face holds what an app passes to it and gets back, and the keys, errors and
 * checks an app handles around it. A store implementation imports `@latchkey/core/store`, the
 * delivery engine is `@latchkey/core/webhooks`, the Node bridge `@latchkey/core/node` and what a
 * client needs (no server code) `@latchkey/core/client`.
 */

// Verification of what a core hands out: the chain, an export and its checkpoint.
export { type ChainHead, verifyChain } from '../activity/chain.js';
// Keys: API tokens, the keyring at rest, the audit key, device keys and signed pushes.
export {
  type AuditKey,
  type Checkpoint,
  generateAuditKey,
  signCheckpoint,
  toAuditKey,
  verifyCheckpoint,
} from '../activity/checkpoint/checkpoint.js';
// The catalogs an app shows or filters by: event types, roles and permissions, backup contents.
export {
  describeEventTypes,
  EVENT_TYPES,
  type EventData,
  type EventType,
  type EventTypeDescription,
  isEventType,
} from '../activity/event-types/index.js';
export type { BootstrapOptions } from '../auth/bootstrap.js';
export type { ExternalIdentity, HostAuthenticate } from '../auth/host-identity.js';
export { PERMISSIONS, type Permission, ROLE_PERMISSIONS } from '../auth/permissions.js';
export { generateApiToken, hashToken } from '../auth/tokens.js';
// Building a core: its options, the store it keeps everything in and the parsers of option values.
export type { RestoreLimitsOption } from '../backup/restore/limits.js';
export type { ExportFault, ExportVerdict, VerifyExportOptions } from '../client/verify-export.js';
export type { CoreOptions } from '../config/options.js';
export { type Core, createCore } from '../core.js';
export type { KeyringOption, WebhookOptions } from '../delivery/config.js';
// What the methods of a core take and answer.
export type { StartDeliveriesOptions } from '../delivery/engine/control.js';
export type { DeliveryEngine } from '../delivery/engine/engine.js';
export { parseRetrySchedule, type RetryPolicy } from '../delivery/retry-schedule.js';
export { type AllowHosts, parseAllowHosts, type ResolveHost } from '../delivery/sending/ssrf.js';
// Errors: one class, its guard and the table from code to status.
export {
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  isLatchkeyError,
  LatchkeyError,
  type LatchkeyErrorOptions,
} from '../errors/latchkey-error.js';
export type { HealthReport } from '../health/probe.js';
// Serving: the Web bridge, and what an adapter or a server adds around `core.handle`.
export { probeResponse } from '../health/probe.js';
export type {
  DeliveriesCheck,
  MigrationsCheck,
  ReadyOptions,
  ReadyReport,
  StoreCheck,
} from '../health/ready.js';
export { isUnderBasePath } from '../http/base-path.js';
export { frameworkErrorResponse } from '../http/framework-error.js';
export { fromWebRequest, toWebResponse } from '../http/web.js';
export { checkKeyring, type KeyringCheck, KeyringMismatchError } from '../keyring/check.js';
export { generateKeyringKey, type Keyring, MissingKeyError, parseKeyring } from '../keyring/keyring.js';
export type { ReencryptCounts, ReencryptOptions } from '../keyring/reencrypt.js';
export { createMemoryStore, type MemoryStoreOptions } from '../memory/index.js';
export { PROMETHEUS_CONTENT_TYPE } from '../metrics/prometheus.js';
export { type BackupCounts, emptyBackupCounts } from '../model/backup-format.js';
export type { CoreHeaders, CoreRequest, CoreResponse } from '../model/core-request.js';
export type { ActivityEvent, Actor, Organization } from '../model/model.js';
export {
  PORTAL_CAPABILITIES,
  PORTAL_TOKEN_PREFIX,
  type PortalCapability,
} from '../model/portal-session.js';
export type { Role } from '../model/roles.js';
export { ROLES } from '../model/roles.js';
export type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';
export type { CreatePortalSessionInput } from '../portal/host-sessions.js';
export type { MintedPortalSession } from '../portal/mint-session.js';
export type { PortalOptions } from '../portal/settings.js';
export { type IdGenerator, randomId } from '../runtime/ids.js';
export type { CoreLogger } from '../runtime/logger.js';
// The API's request and answer schemas, one namespace (the dashboard derives its types from it).
export * as schemas from '../schemas/namespace.js';
export type { PushAddress } from '../secrets/signatures.js';
export type { LatchkeyStore, StoreStatus } from '../store/types.js';
// Device keys, signing and the export check, as `/client` lists them.
export * from './client-node.js';
