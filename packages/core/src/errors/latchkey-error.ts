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
  forbidden: 403,
  device_unknown: 403,
  device_revoked: 403,
  device_not_owned: 403,
  device_key_invalid: 403,
  not_found: 404,
  method_not_allowed: 405,
  already_exists: 409,
  version_conflict: 409,
  push_replayed: 409,
  last_owner: 409,
  webhook_disabled: 409,
  organization_not_empty: 409,
  restore_in_progress: 409,
  limit_exceeded: 409,
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
