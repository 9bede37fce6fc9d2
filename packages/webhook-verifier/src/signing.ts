import type { RawBody } from './body.js';
import { TIMESTAMP_PATTERN, WEBHOOK_HEADERS } from './constants.js';

/** Input of `sign`. */
export interface SignInput {
  /** The webhook's signing secret; the HMAC key is its UTF-8 bytes, whole. */
  secret: string;
  /** Unix seconds, as sent in `X-Service-Timestamp`. */
  timestamp: number | string;
  /** The exact bytes (or text) that will be sent as the request body. */
  body: RawBody;
}

/** Input of `signatureHeaders`. */
export interface SignatureHeadersInput {
  secret: string;
  body: RawBody;
  /** The event's `id`, echoed in `X-Service-Event-Id` for logs. */
  eventId: string;
  /** Unix seconds; default: now. Every delivery attempt is signed afresh with the current time. */
  timestamp?: number;
}

/**
 * The three headers of a delivery, ready to pass to `fetch` or a test request. A type alias, not an
 * interface, so it is assignable to `Record<string, string>` and `HeadersInit`.
 */
export type SignatureHeaders = {
  'X-Service-Timestamp': string;
  'X-Service-Signature': string;
  'X-Service-Event-Id': string;
};

/** Checks and formats a timestamp exactly as the verifier will read it. @internal */
export function timestampString(timestamp: number | string): string {
  const text = typeof timestamp === 'number' ? String(timestamp) : timestamp;
  if (!TIMESTAMP_PATTERN.test(text)) {
    throw new TypeError('timestamp must be a non-negative integer of unix seconds');
  }
  return text;
}

/** Checks the secret the same way the verifier does. @internal */
export function signingSecret(secret: unknown): string {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('secret must be a non-empty string');
  return secret;
}

/** @internal */
function toSignatureHeaders(timestamp: string, signature: string, eventId: string): SignatureHeaders {
  if (typeof eventId !== 'string' || eventId === '')
    throw new TypeError('eventId must be a non-empty string');
  return {
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: signature,
    [WEBHOOK_HEADERS.eventId]: eventId,
  } as SignatureHeaders;
}

/** @internal */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The headers of one delivery attempt, signed by an engine's `sign` at the given time or now: one
 * shape for the synchronous node:crypto signer and the asynchronous Web Crypto one. @internal
 */
export function signAttempt(
  input: SignatureHeadersInput,
  sign: (input: SignInput) => string,
): SignatureHeaders;
export function signAttempt(
  input: SignatureHeadersInput,
  sign: (input: SignInput) => Promise<string>,
): Promise<SignatureHeaders>;
export function signAttempt(
  input: SignatureHeadersInput,
  sign: (input: SignInput) => string | Promise<string>,
): SignatureHeaders | Promise<SignatureHeaders> {
  const timestamp = timestampString(input.timestamp ?? nowSeconds());
  const signature = sign({ ...input, timestamp });
  if (typeof signature === 'string') return toSignatureHeaders(timestamp, signature, input.eventId);
  return signature.then((value) => toSignatureHeaders(timestamp, value, input.eventId));
}
