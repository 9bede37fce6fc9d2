/**
 * `@latchkey/core`: the app API. Build a core with {@link createCore} and serve `core.handle` through
 * an adapter; this face holds what an app passes to it and gets back, and the keys, errors and
 * checks an app handles around it. A store implementation imports `@latchkey/core/store`, the
 * delivery engine is `@latchkey/core/webhooks`, the Node bridge `@latchkey/core/node` and what a
 * client needs (no server code) `@latchkey/core/client`.
 *
 * The names, by what an app does with them: build a core (`createCore`, `CoreOptions` and the
 * parsers of option values, the memory store); call its methods (what they take and answer:
 * bootstrap, readiness and health, deliveries, re-encryption, portal sessions); serve it (the Web
 * bridge, `probeResponse`, `isUnderBasePath`, `frameworkErrorResponse`); handle its errors (one
 * class, its guard, the code-to-status table); keys (API tokens, the keyring at rest, the audit
 * key); the catalogs an app shows or filters by (event types, roles and permissions, backup
 * counts); the API's schemas, one namespace; the checks of what a core hands out (the chain, a
 * checkpoint); and what `/client` lists that needs Node's crypto (device keys, signing, the export
 * check).
 */

export { type ChainHead, verifyChain } from '../activity/chain.js';
export {
  type AuditKey,
  type Checkpoint,
  generateAuditKey,
  signCheckpoint,
  toAuditKey,
  verifyCheckpoint,
} from '../activity/checkpoint/checkpoint.js';
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
export type { RestoreLimitsOption } from '../backup/restore/limits.js';
export type { ExportFault, ExportVerdict, VerifyExportOptions } from '../client/verify-export.js';
export type { CoreOptions } from '../config/options.js';
export { type Core, createCore } from '../core.js';
export type { KeyringOption, WebhookOptions } from '../delivery/config.js';
export type { StartDeliveriesOptions } from '../delivery/engine/control.js';
export type { DeliveryEngine } from '../delivery/engine/engine.js';
export { parseRetrySchedule, type RetryPolicy } from '../delivery/retry-schedule.js';
export { type AllowHosts, parseAllowHosts, type ResolveHost } from '../delivery/sending/ssrf.js';
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
export * as schemas from '../schemas/namespace.js';
export type { PushAddress } from '../secrets/signatures.js';
export type { LatchkeyStore, StoreStatus } from '../store/types.js';
export * from './client-node.js';
