/**
 * Header names of a Latchkey audit webhook delivery.
 * HTTP header names are case-insensitive; these are the spellings the sender uses.
 */
export const WEBHOOK_HEADERS = {
  /** Unix time in seconds at which this attempt was signed. */
  timestamp: 'X-Service-Timestamp',
  /** `sha256=` followed by the lowercase hex HMAC-SHA256 of `<timestamp>.<raw_body>`. */
  signature: 'X-Service-Signature',
  /** The event `id`, for logs only: it is not signed, so the verifier reads the id from the body. */
  eventId: 'X-Service-Event-Id',
} as const;

/** Largest accepted difference, either way, between the receiver's clock and `X-Service-Timestamp`. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Prefix of every Latchkey signing secret; part of the HMAC key, never stripped. */
export const SIGNING_SECRET_PREFIX = 'whsec_';

/** `sha256=` + 64 lowercase hex digits, nothing else (no whitespace, no uppercase). */
export const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;

/** Plain decimal digits without leading zeros, at most 15 so the value stays an exact safe integer. */
export const TIMESTAMP_PATTERN = /^(?:0|[1-9][0-9]{0,14})$/;
