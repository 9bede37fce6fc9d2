/**
 * The one error model of Latchkey: a string code, an HTTP status from a single table, and a message
 * that is safe to show. Recognised by a brand symbol rather than `instanceof`, so that two copies of
 * the package (ESM and CJS, or two versions) still agree on what a Latchkey error is.
 */

/** Every error code the HTTP API can answer with, mapped to its status. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  invalid_client_signature: 401,
  invalid_workload_token: 401,
  forbidden: 403,
  device_unknown: 403,
  device_revoked: 403,
  device_not_owned: 403,
  device_key_invalid: 403,
  approval_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  already_exists: 409,
  version_conflict: 409,
  push_replayed: 409,
  token_replayed: 409,
  last_owner: 409,
  webhook_disabled: 409,
  organization_not_empty: 409,
  restore_in_progress: 409,
  limit_exceeded: 409,
  already_approved: 409,
  change_request_closed: 409,
  change_request_expired: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  backup_invalid: 422,
  cosignature_invalid: 422,
  if_version_required: 428,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

/** A stable, documented error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * What each code means to the caller: when it is answered, and what to do about it. Kept beside the
 * status table so that a new code cannot ship without saying what it means; `docs/errors.md` is
 * generated from both (`npm run docs:write`).
 */
export const ERROR_DESCRIPTIONS = {
  invalid_request:
    'The body, query or path fails validation (a lone surrogate or NUL in a string included), the JSON is malformed or its bytes are not UTF-8, `force_overwrite` is sent in strict mode, or a lenient push is sent where the environment requires strict mode. `details` names each path.',
  unauthenticated: 'No credential, or one that is unknown, revoked or malformed.',
  invalid_client_signature:
    "The push's `client_sig` does not verify, or its `signed_at` is more than 300 s away from the server clock.",
  invalid_workload_token:
    'An ID token refused by `POST /workload-tokens`: no such organization or identity, or a failed check (form, alg, iss, the issuer’s keys, kid, signature, aud, exp, iat, nbf, lifetime, sub, a listed claim, jti); the message names the check, never the token.',
  forbidden:
    'The role lacks the permission (`force_overwrite` without `secrets:force_overwrite` included), or the member acted on ranks higher than the caller.',
  device_unknown: 'The push names a device that was never enrolled in this organization.',
  device_revoked: 'The push names a device that was revoked.',
  device_not_owned: 'The push names a device enrolled by another member.',
  device_key_invalid:
    "The device's stored key is weak (small or mixed order, or not canonically encoded), so any signature could verify: enroll a new key pair.",
  approval_required:
    "A plain push to an environment under an approval policy: make a change request, or (a role in the policy's `bypass_roles`) push with `bypass_reason`. The message names the policy.",
  not_found: "No such resource, and also the answer for another organization's resources.",
  method_not_allowed: 'The path exists but not with this method; `Allow` lists the methods it has.',
  already_exists: 'A slug (organization, project, environment), a member or a witness that already exists.',
  version_conflict:
    'A push whose `if_version` does not match the stored version of one or more keys; nothing is written, and the top-level `conflicts[]` lists every conflicting key.',
  push_replayed: "The push's nonce was already used; nothing is written.",
  token_replayed: 'An ID token whose `jti` was already exchanged; nothing is issued.',
  last_owner: 'The change or removal would leave the organization without an owner.',
  webhook_disabled: '`recover` on a disabled audit webhook: enable it first.',
  organization_not_empty:
    'A restore into an organization that has projects, devices, audit webhooks or other members, without `force`.',
  restore_in_progress:
    'A restore begun while the organization has another one open (not committed, abandoned or expired); the message names it.',
  limit_exceeded:
    "A creation past a per-organization bound of the core option `limits` (audit webhooks, witnesses, organizations per user), or a replay of more than `webhooks.replay.maxEvents` events or while the webhook's last replay is under way; nothing is written.",
  already_approved: 'The caller has approved this change request already: each user approves once.',
  change_request_closed:
    'An action on a change request that is no longer open (applied, rejected, cancelled, conflicted, or an apply before enough approvals); the message names its status.',
  change_request_expired: 'An action on a change request past its `expires_at`; it is now `expired`.',
  payload_too_large:
    'The body is over the limit (1 MiB by default), or a restore declares or numbers parts past `restores.maxParts`.',
  unsupported_media_type:
    'The body is not `application/json` (or `application/*+json`), or declares a charset other than UTF-8.',
  backup_invalid:
    'A restore whose content does not match its manifest, is cut short, has a malformed, misplaced or too long line, breaks a create rule or lacks a trusted checkpoint; the message names the line, and nothing is written.',
  cosignature_invalid:
    'A posted cosignature is not a note signature line or cosigned note, names a checkpoint this log never had, or no line is a valid `tlog-cosignature/v1` of a registered witness (unknown name, wrong key hash, bad signature, timestamp more than 5 minutes ahead).',
  if_version_required:
    'Strict mode, and a change lacks `if_version`; the top-level `keys[]` lists those changes.',
  rate_limited:
    "A rotation of webhook signing keys past the organization's 10 keys in 24 hours; `Retry-After` says when the next one is allowed.",
  request_header_fields_too_large:
    "The request line and headers are over the server's limit (Node's `maxHeaderSize`, 16 KiB by default); answered by `latchkeyClientError` before the request reaches the core.",
  internal_error: 'Anything unexpected. The answer says nothing about the cause.',
  service_unavailable:
    "The store cannot serve now (database unreachable, pool exhausted, statement timeout), a stored value is sealed with a key id this server's keyring lacks, or the keyring cannot open the store's data. `Retry-After` says when to try again; no key is ever logged.",
} as const satisfies Record<ErrorCode, string>;

/** One entry of `error.details` on a 400: where the input was wrong and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The JSON body of every non-2xx response. Extra top-level fields (`conflicts`, `keys`) sit beside `error`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; status: number; details?: ErrorDetail[] };
  [extra: string]: unknown;
}

const BRAND = Symbol.for('latchkey.error');

/** Options of a {@link LatchkeyError}. */
export interface LatchkeyErrorOptions {
  details?: ErrorDetail[];
  /** Top-level fields added beside `error` in the body, e.g. `conflicts` for `version_conflict`. */
  extra?: Record<string, unknown>;
  cause?: unknown;
  /** Sent as `Retry-After` (seconds), e.g. with `service_unavailable`. */
  retryAfterSeconds?: number;
}

/** The error class of Latchkey. Its message is always safe to return to the caller. */
export class LatchkeyError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: LatchkeyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LatchkeyError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.extra = options.extra;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The headers this error adds to its answer (`Retry-After`). */
  headers(): Record<string, string> | undefined {
    return this.retryAfterSeconds === undefined
      ? undefined
      : { 'retry-after': String(Math.max(1, Math.ceil(this.retryAfterSeconds))) };
  }

  /** The documented response body for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message, status: this.status };
    if (this.details && this.details.length > 0) error.details = this.details;
    return { error, ...this.extra };
  }
}

/** True when `value` is a {@link LatchkeyError} from any copy of this package. */
export function isLatchkeyError(value: unknown): value is LatchkeyError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * The error a store throws when the database cannot serve right now (unreachable, out of
 * connections, over its statement timeout): 503 `service_unavailable` with `Retry-After`. `cause` is
 * kept for the logs; the message says nothing about it.
 */
export function serviceUnavailable(cause: unknown, retryAfterSeconds = 1): LatchkeyError {
  return new LatchkeyError(
    'service_unavailable',
    'The service is unavailable right now; try again shortly.',
    {
      cause,
      retryAfterSeconds,
    },
  );
}

/** A 404 `not_found`; the message names the kind of resource, never whether it exists elsewhere. */
export function notFound(what = 'resource'): LatchkeyError {
  return new LatchkeyError('not_found', what === 'resource' ? 'Not found.' : `The ${what} was not found.`);
}

/** The body of an unexpected failure: it says nothing about the cause. */
export function internalErrorBody(): ErrorBody {
  return { error: { code: 'internal_error', message: 'An internal error occurred.', status: 500 } };
}
