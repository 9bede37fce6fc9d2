/**
 * The options of `createCore` and `core.bootstrap`. Types only, and only of modules that never import
 * the core back, so any module may read them without closing an import circle.
 */
import type { KeyObject } from 'node:crypto';
import type { HostAuthenticate } from '../auth/host-identity.js';
import type { RestoreLimitsOption } from '../backup/restore/limits.js';
import type { KeyringOption, WebhookOptions } from '../delivery/config.js';
import type { LimitsOption } from '../model/limits.js';
import type { PortalOptions } from '../portal/settings.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { CoreLogger } from '../runtime/logger.js';
import type { LatchkeyStore } from '../store/types.js';
import type { TrustedIssuer } from '../workload/trusted-issuers.js';

/** Options of `createCore`. */
export interface CoreOptions {
  /** Where everything is kept. Default: a new in-memory store. */
  store?: LatchkeyStore;
  /** Path prefix of the API. Default `/api/v2`. */
  basePath?: string;
  /** Largest request body in bytes; larger ones get 413 `payload_too_large`. Default 1 MiB. */
  bodyLimit?: number;
  /** Replaces Bearer API tokens with the host app's own authentication. */
  authenticate?: HostAuthenticate;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Id generator. Default: prefix + 12 random bytes hex. */
  ids?: IdGenerator;
  /** Accepted distance between a push's `signed_at` and now, in seconds. Default 300. */
  signatureToleranceSeconds?: number;
  /**
   * How many versions of each secret key keep their value (sealed at rest like the head); older
   * versions keep their metadata only. An integer from 1 to 1000. Default 10.
   */
  secretVersionsKept?: number;
  /** Receives unexpected errors. Default: `console.error` of the error name and message. */
  logger?: CoreLogger;
  /**
   * Checks every JSON answer of a matched route, errors included, against the statuses and schemas
   * the route documents, and turns a mismatch into a 500 (logged). For tests and staging: it proves
   * the OpenAPI document tells the truth. Default false.
   */
  validateResponses?: boolean;
  /**
   * Lets any authenticated user create an organization with `POST /organizations`, becoming its
   * owner (the answer carries an owner token, shown once). Default false: a 403 `forbidden`.
   */
  allowOrganizationCreation?: boolean;
  /**
   * The Ed25519 private key (a KeyObject or PKCS#8 PEM) that signs checkpoints of each
   * organization's activity chain: `GET …/activity/checkpoint`, and the last line of every NDJSON
   * export. Keep it out of the database: a checkpoint proves the log was not cut short or rewritten
   * by someone who could change the database. Without it, checkpoints are not offered.
   */
  auditKey?: KeyObject | string;
  /**
   * Public audit keys (raw Ed25519 in base64url, as `…/activity/checkpoint` shows them, or SPKI
   * PEM) of other servers, or of this server's earlier audit keys, whose signed checkpoints a
   * restore accepts besides `auditKey`'s own. A restore takes a backup's activity history in only
   * when the backup's checkpoint verifies with one of these keys or with `auditKey`; with neither,
   * restores are refused (503). Default none.
   */
  trustedAuditKeys?: readonly string[];
  /**
   * The first part of each organization's checkpoint origin line, `<checkpointOrigin>/<organization>`
   * (C2SP tlog-checkpoint; also the note's key name): a schema-less URL naming this deployment, such
   * as its public host (`secrets.example.com`). No whitespace and no `+`. Default `latchkey.local`.
   */
  checkpointOrigin?: string;
  /**
   * Keys for encryption at rest (AES-256-GCM): audit webhook signing secrets and secret values are
   * stored sealed with it (`reencrypt()` moves them to a new current key). A keyring, its text form (`id:base64key,...`, the first current, as in `LATCHKEY_KEYRING`) or
   * `{ current, keys }`. Keep it out of the database. Without it, audit webhooks cannot be created
   * (503 `service_unavailable`) and secret values are stored as clients send them. The store records
   * the key ids its data was sealed with; a keyring that cannot open all of them is refused (see
   * `verifyKeyring`).
   */
  keyring?: KeyringOption;
  /** Audit webhook settings: DNS resolver and allowlist of the SSRF guard, retry policy, timeout. */
  webhooks?: WebhookOptions;
  /**
   * Limits of a staged restore: `maxParts` (default 10,000; a manifest may declare no more bytes than
   * so many parts carry within `bodyLimit`) and `maxLineBytes` (default 16 MiB), so one restore
   * cannot fill the server's memory or disk.
   */
  restores?: RestoreLimitsOption;
  /**
   * Per-organization bounds: `auditWebhooksPerOrganization` (default 100), `witnessesPerOrganization`
   * (32), `organizationsPerUser` (10, for `POST /organizations`), `webhookSeriesPerOrganization`
   * (20 webhooks with series of their own in `metricsText()`, the rest summed as `other`) and
   * `portalSessionsPerOrganization` (1,000 live portal sessions). Going over one is 409
   * `limit_exceeded` and writes nothing.
   */
  limits?: LimitsOption;
  /**
   * OIDC issuers of workload ID tokens trusted beyond the public ones: a private issuer with extra
   * CAs (`{ issuer, ca }`), or a loopback issuer for tests. Their hosts are reached whatever address
   * they resolve to; every other issuer is held to the webhook SSRF rules. A list, or issuer URLs
   * separated by commas (`LATCHKEY_TRUSTED_ISSUERS` in the example servers). Default none.
   */
  trustedIssuers?: string | readonly (TrustedIssuer | string)[];

  /**
   * Portal sessions (the dashboard embedded in the host app): `allowedOrigins` that may frame it,
   * and the `publicUrl` (and `dashboardPath`, default `/dashboard`) each session's `url` starts with.
   */
  portal?: PortalOptions;
}
