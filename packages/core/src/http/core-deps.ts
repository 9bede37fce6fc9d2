/** The dependencies `createCore` resolves and every handler reaches (`ctx.deps`). */
import type { AuditKey } from '../activity/checkpoint/checkpoint.js';
import type { TrustedAuditKeys } from '../activity/trusted-audit-keys.js';
import type { RestoreLimits } from '../backup/restore/limits.js';
import type { WebhookSettings } from '../delivery/config.js';
import type { Keyring } from '../keyring/keyring.js';
import type { Limits } from '../model/limits.js';
import type { PortalSettings } from '../portal/settings.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { CoreLogger } from '../runtime/logger.js';
import type { LatchkeyStore } from '../store/types.js';
import type { WorkloadSettings } from '../workload/settings.js';

/**
 * The core's dependencies, resolved once from its options: the store, the injected side effects and
 * the settings. Handlers get them as `ctx.deps`; a domain function takes only the parts it uses.
 */
export interface CoreDeps {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  ids: IdGenerator;
  /** Tolerance for `signed_at`, in seconds. */
  signatureToleranceSeconds: number;
  /** The OpenAPI document of this core. */
  openapi(): Record<string, unknown>;
  /** Whether `POST /organizations` may create organizations (core option `allowOrganizationCreation`). */
  allowOrganizationCreation: boolean;
  /** The key that signs checkpoints of the activity chain, when the host supplies one. */
  auditKey: AuditKey | undefined;
  /** The audit keys whose checkpoints a restore accepts: the own key and `trustedAuditKeys`. */
  trustedAuditKeys: TrustedAuditKeys;
  /** The first part of checkpoint origin lines (core option `checkpointOrigin`). */
  checkpointOrigin: string;
  /** Encryption at rest (signing secrets, secret values), when the host supplies a keyring. */
  keyring: Keyring | undefined;
  /** Audit webhook settings: SSRF guard, retry policy, timeouts. */
  webhooks: WebhookSettings;
  /** Limits of a staged restore (core option `restores`). */
  restores: RestoreLimits;
  /** How many versions of each key keep their value (core option `secretVersionsKept`). */
  secretVersionsKept: number;
  /** Per-organization bounds (core option `limits`). */
  limits: Limits;
  /** Portal sessions: the origins that may frame them, and their page's URL (core option `portal`). */
  portal: PortalSettings;
  /** Where operational lines go (core option `logger`): what could not be recorded, say. */
  logger: CoreLogger;
  /** Workload identity: the trusted issuers and the cache of issuers' keys. */
  workload: WorkloadSettings;
}
