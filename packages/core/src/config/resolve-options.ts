/** The defaults of `createCore`'s options, resolved once into what the pipeline and services use. */
import { toAuditKey } from '../activity/checkpoint/checkpoint.js';
import { toCheckpointOrigin } from '../activity/checkpoint/checkpoint-origin.js';
import { toTrustedAuditKeys } from '../activity/trusted-audit-keys.js';
import { toRestoreLimits } from '../backup/restore/limits.js';
import { toKeyring, webhookSettings } from '../delivery/config.js';
import type { CoreDeps } from '../http/core-deps.js';
import { createMemoryStore } from '../memory/index.js';
import { toLimits } from '../model/limits.js';
import { toPortalSettings } from '../portal/settings.js';
import { randomId } from '../runtime/ids.js';
import { type CoreLogger, consoleLogger } from '../runtime/logger.js';
import { toVersionsKept } from '../secrets/versions.js';
import type { LatchkeyStore } from '../store/types.js';
import { tracedStore } from '../telemetry/traced-store.js';
import { workloadSettings } from '../workload/settings.js';
import type { CoreOptions } from './options.js';

/** The defaults of the options that are plain values, under the options' own names. */
const DEFAULTS = {
  /** The path prefix of the API. */
  basePath: '/api/v2',
  /** The largest request body: 1 MiB. */
  bodyLimit: 1_048_576,
  /** The tolerance of a push's `signed_at`, in seconds. */
  signatureToleranceSeconds: 300,
} satisfies Required<Pick<CoreOptions, 'basePath' | 'bodyLimit' | 'signatureToleranceSeconds'>>;

/** Every option of a core with its default filled in. */
export interface ResolvedOptions {
  store: LatchkeyStore;
  /** The base path without a trailing slash (`''` for the root). */
  basePath: string;
  bodyLimit: number;
  logger: CoreLogger;
  /** What the route handlers get, but the OpenAPI document (built from the routes by the core). */
  services: Omit<CoreDeps, 'openapi'>;
}

/** Fills in every default of `options`; parses the audit key, the keyring and the webhook settings. */
export function resolveOptions(options: CoreOptions): ResolvedOptions {
  const store = tracedStore(options.store ?? createMemoryStore());
  const bodyLimit = options.bodyLimit ?? DEFAULTS.bodyLimit;
  const auditKey = options.auditKey === undefined ? undefined : toAuditKey(options.auditKey);
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  const webhooks = webhookSettings(options.webhooks);
  return {
    store,
    basePath: (options.basePath ?? DEFAULTS.basePath).replace(/\/+$/, ''),
    bodyLimit,
    logger,
    services: {
      store,
      now,
      ids: options.ids ?? randomId,
      signatureToleranceSeconds: options.signatureToleranceSeconds ?? DEFAULTS.signatureToleranceSeconds,
      allowOrganizationCreation: options.allowOrganizationCreation ?? false,
      auditKey,
      trustedAuditKeys: toTrustedAuditKeys(auditKey, options.trustedAuditKeys),
      checkpointOrigin: toCheckpointOrigin(options.checkpointOrigin),
      keyring: toKeyring(options.keyring),
      webhooks,
      workload: workloadSettings(options.trustedIssuers, webhooks, now),
      restores: toRestoreLimits(options.restores, bodyLimit),
      secretVersionsKept: toVersionsKept(options.secretVersionsKept),
      limits: toLimits(options.limits),
      portal: toPortalSettings(options.portal),
      logger,
    },
  };
}
