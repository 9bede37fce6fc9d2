import { normalizeBody, type RawBody } from './body.js';
import { DEFAULT_TOLERANCE_SECONDS } from './constants.js';
import { type VerificationErrorCode, WebhookVerificationError } from './errors.js';
import { toVerifiedEvent, type VerifiedEvent, type WebhookEvent } from './event.js';
import { parseSignature, parseTimestamp } from './format.js';
import { type HeadersInput, readHeader } from './headers.js';
import { createMemoryReplayStore } from './memory-replay-store.js';
import type { ReplayStore } from './replay-store.js';

/** Options of `createWebhookVerifier` (same for the Node and the Web Crypto entry points). */
export interface WebhookVerifierOptions {
  /**
   * The signing secret (`whsec_...`), or several during a rotation: a delivery signed with any of them
   * is accepted. Used byte for byte as the HMAC key: no prefix stripped, no whitespace trimmed.
   */
  secret: string | readonly string[];
  /** Largest accepted |now - timestamp| in seconds, both directions. Default 300. */
  toleranceSeconds?: number;
  /**
   * Where accepted event ids are remembered. Default: a new in-memory store (one process only).
   * `false` turns replay protection off; only do that if your handler is idempotent by event id.
   */
  replayStore?: ReplayStore | false;
  /**
   * How long after its timestamp an accepted id is remembered, in seconds. At least
   * `toleranceSeconds`, after which the timestamp check rejects the delivery anyway; the default,
   * twice the tolerance (600 s), leaves room for clock skew between receiver instances.
   */
  replayRetentionSeconds?: number;
  /** Clock in milliseconds since epoch, for tests. Default `Date.now`. */
  now?: () => number;
}

/** Result of `safeVerify`: never a thrown verification error. */
export type VerifyResult<T = WebhookEvent> =
  | { ok: true; event: VerifiedEvent<T> }
  | { ok: false; code: VerificationErrorCode; message: string };

/** A configured verifier; create one per secret set and reuse it for every request. */
export interface WebhookVerifier<T = WebhookEvent> {
  /**
   * Checks a delivery (header format, timestamp window, HMAC, body id, replay) and records its id.
   * Rejects with {@link WebhookVerificationError} for a bad delivery; any other rejection comes from the
   * replay store (answer 5xx so the sender retries).
   */
  verify(body: RawBody, headers: HeadersInput): Promise<VerifiedEvent<T>>;
  /** Like `verify`, but resolves verification failures to `{ ok: false, code, message }`. */
  safeVerify(body: RawBody, headers: HeadersInput): Promise<VerifyResult<T>>;
  /**
   * Forgets an accepted id so the sender's retry is accepted. Call it when your own processing failed
   * and you answer non-2xx. {@link WebhookVerifier.handle} does it for you.
   */
  release(event: VerifiedEvent<unknown> | string): Promise<void>;
  /**
   * Verifies, runs `handler`, and releases the id if the handler throws (then rethrows), so a failed
   * delivery can be retried by the sender. Resolves with the handler's result.
   */
  handle<R>(
    body: RawBody,
    headers: HeadersInput,
    handler: (event: VerifiedEvent<T>) => R | Promise<R>,
  ): Promise<R>;
}

/**
 * The HMAC half that differs between runtimes. `matches` must compare in constant time and may be
 * synchronous (node:crypto) or not (Web Crypto).
 * @internal
 */
export interface HmacEngine<K> {
  /** True when `matches` never returns a promise: the verifier then reuses one signature buffer. */
  readonly synchronous: boolean;
  importKey(secret: string): K;
  matches(
    keys: readonly K[],
    timestamp: string,
    body: string | Uint8Array,
    expected: Uint8Array<ArrayBuffer>,
  ): boolean | Promise<boolean>;
}

function fail(code: VerificationErrorCode, message: string): never {
  throw new WebhookVerificationError(code, message);
}

/** Validates options and returns the secrets as a non-empty list. @internal */
export function secretList(secret: unknown): string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
    throw new TypeError('secret must be a non-empty string or a non-empty array of non-empty strings');
  }
  return list;
}

/** The tolerance and the replay retention, in seconds, checked. */
function timing(options: WebhookVerifierOptions): { tolerance: number; retention: number } {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError('toleranceSeconds must be a finite number >= 0');
  }
  const retention = options.replayRetentionSeconds ?? tolerance * 2;
  if (!Number.isFinite(retention) || retention < tolerance) {
    throw new RangeError('replayRetentionSeconds must be a finite number >= toleranceSeconds');
  }
  return { tolerance, retention };
}

/** Reads both signature headers: decodes the signature into `expected`, returns the timestamp. */
function readSignatureHeaders(
  headers: HeadersInput,
  expected: Uint8Array<ArrayBuffer>,
): { stamp: string; timestamp: number } {
  const signature = readHeader(headers, 'x-service-signature', 'malformed_signature');
  const stamp = readHeader(headers, 'x-service-timestamp', 'malformed_timestamp');
  if (signature === undefined) fail('missing_header', 'missing header X-Service-Signature');
  if (stamp === undefined) fail('missing_header', 'missing header X-Service-Timestamp');
  if (!parseSignature(signature, expected)) {
    fail('malformed_signature', 'X-Service-Signature must be sha256= followed by 64 lowercase hex digits');
  }
  const timestamp = parseTimestamp(stamp);
  if (timestamp < 0) fail('malformed_timestamp', 'X-Service-Timestamp must be unix seconds in plain digits');
  return { stamp, timestamp };
}

/** Refuses a timestamp more than `tolerance` seconds away from `now` (milliseconds), either way. */
function checkWindow(now: number, timestamp: number, tolerance: number): void {
  const age = now / 1000 - timestamp;
  if (age > tolerance) fail('timestamp_too_old', `timestamp is more than ${tolerance} s old`);
  if (age < -tolerance) fail('timestamp_in_future', `timestamp is more than ${tolerance} s in the future`);
}

function replayed(id: string): never {
  return fail('replayed', `event ${JSON.stringify(id)} was already accepted`);
}

/** Turns a verified body into its event, claiming its id in `store` for `retention` seconds. */
function acceptOnce<T>(store: ReplayStore | false, retention: number) {
  return (raw: string | Uint8Array, timestamp: number, now: number): Promise<VerifiedEvent<T>> => {
    const event = toVerifiedEvent<T>(raw, timestamp);
    if (store === false) return Promise.resolve(event);
    const claimed = store.claim(event.id, (timestamp + retention) * 1000, now);
    if (claimed === true) return Promise.resolve(event);
    if (claimed === false) replayed(event.id);
    return (claimed as Promise<boolean>).then((ok) => (ok ? event : replayed(event.id)));
  };
}

/** `safeVerify` over `verify`: verification failures as a result, anything else still thrown. */
function safely<T>(verify: WebhookVerifier<T>['verify']): WebhookVerifier<T>['safeVerify'] {
  return (body, headers) =>
    verify(body, headers).then(
      (event): VerifyResult<T> => ({ ok: true, event }),
      (error: unknown): VerifyResult<T> => {
        if (WebhookVerificationError.is(error))
          return { ok: false, code: error.code, message: error.message };
        throw error;
      },
    );
}

/** `handle` over `verify` and `release`: a handler that throws gives the event id back. */
function handling<T>(
  verify: WebhookVerifier<T>['verify'],
  release: WebhookVerifier<T>['release'],
): WebhookVerifier<T>['handle'] {
  return async (body, headers, handler) => {
    const event = await verify(body, headers);
    try {
      return await handler(event);
    } catch (error) {
      try {
        await release(event);
      } catch (releaseError) {
        throw new AggregateError(
          [error, releaseError],
          'handler failed and its event id could not be released',
        );
      }
      throw error;
    }
  };
}

/** Builds a verifier on top of an HMAC engine. @internal */
export function createVerifier<T, K>(
  engine: HmacEngine<K>,
  options: WebhookVerifierOptions,
): WebhookVerifier<T> {
  const keys = secretList(options.secret).map((s) => engine.importKey(s));
  const { tolerance, retention } = timing(options);
  const store = options.replayStore === undefined ? createMemoryReplayStore() : options.replayStore;
  const clock = options.now ?? Date.now;
  // With a synchronous engine the decoded signature is dead before the next verify starts.
  const scratch = engine.synchronous ? new Uint8Array(32) : undefined;
  const accept = acceptOnce<T>(store, retention);

  // Written without async/await: on the Node path every step is synchronous and this costs no ticks.
  function verify(body: RawBody, headers: HeadersInput): Promise<VerifiedEvent<T>> {
    try {
      const expected = scratch ?? new Uint8Array(32);
      const { stamp, timestamp } = readSignatureHeaders(headers, expected);
      const raw = normalizeBody(body);
      const now = clock();
      checkWindow(now, timestamp, tolerance);
      const matched = engine.matches(keys, stamp, raw, expected);
      if (matched === true) return accept(raw, timestamp, now);
      if (matched === false) fail('signature_mismatch', 'signature does not match');
      return (matched as Promise<boolean>).then((ok) =>
        ok ? accept(raw, timestamp, now) : fail('signature_mismatch', 'signature does not match'),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async function release(event: VerifiedEvent<unknown> | string): Promise<void> {
    if (store !== false) await store.release(typeof event === 'string' ? event : event.id);
  }

  return { verify, safeVerify: safely(verify), release, handle: handling(verify, release) };
}
