import { normalizeBody, type RawBody } from './body.js';
import { DEFAULT_TOLERANCE_SECONDS } from './constants.js';
import { type VerificationErrorCode, WebhookVerificationError } from './errors.js';
import { toVerifiedEvent, VerifiedEvent, type WebhookEvent } from './event.js';
import { parseSignature, parseTimestamp } from './format.js';
import { type HeadersInput, readHeader } from './headers.js';
import { createMemoryReplayStore } from './memory-replay-store.js';
import type { ReplayStore } from './replay-store.js';
import type { StandardEngine } from './standard/engine.js';
import { importStandardKeys, readStandardHeaders, standardMatches } from './standard/verify.js';

/** Options of `createWebhookVerifier` (same for the Node and the Web Crypto entry points). */
export interface WebhookVerifierOptions {
  /**
   * The signing secret (`whsec_...`), or several during a rotation: a delivery signed with any of them
   * is accepted. For the `latchkey` scheme it is used byte for byte as the HMAC key (no prefix
   * stripped); for `standard-webhooks`, as the Standard Webhooks libraries read it (the part after
   * `whsec_`, standard base64). Optional when `publicKey` is given.
   */
  secret?: string | readonly string[];
  /**
   * For `standard-webhooks-ed25519` deliveries: the organization's public key (`whpk_...`, from
   * `GET .../audit-webhooks/signing-keys`), or several during a rotation. No secret is needed.
   */
  publicKey?: string | readonly string[];
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
function secretList(secret: unknown): string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
    throw new TypeError('secret must be a non-empty string or a non-empty array of non-empty strings');
  }
  return list;
}

/** The secrets and public keys of the options: either may be absent, not both. */
function keyLists(options: WebhookVerifierOptions): { secrets: string[]; publicKeys: string[] } {
  const publicKeys =
    options.publicKey === undefined
      ? []
      : typeof options.publicKey === 'string'
        ? [options.publicKey]
        : [...options.publicKey];
  if (options.publicKey !== undefined && publicKeys.length === 0) {
    throw new TypeError('publicKey must be a whpk_ key or a non-empty array of them');
  }
  if (options.secret === undefined && publicKeys.length > 0) return { secrets: [], publicKeys };
  return { secrets: secretList(options.secret), publicKeys };
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
  signature: string,
): { stamp: string; timestamp: number } {
  const stamp = readHeader(headers, 'x-service-timestamp', 'malformed_timestamp');
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

/**
 * Turns a verified body into its event, claiming its id in `store` for `retention` seconds. The id is
 * the body's `id` (latchkey scheme) or the signed `webhook-id` (Standard Webhooks), when given.
 */
function acceptOnce<T>(store: ReplayStore | false, retention: number) {
  return (
    raw: string | Uint8Array,
    timestamp: number,
    now: number,
    messageId?: string,
  ): Promise<VerifiedEvent<T>> => {
    const event =
      messageId === undefined
        ? toVerifiedEvent<T>(raw, timestamp)
        : new VerifiedEvent<T>(messageId, timestamp, raw, undefined, false);
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

/** Builds a verifier on top of an HMAC engine and a Standard Webhooks engine. @internal */
export function createVerifier<T, K, S, P>(
  engine: HmacEngine<K>,
  standardEngine: StandardEngine<S, P>,
  options: WebhookVerifierOptions,
): WebhookVerifier<T> {
  const lists = keyLists(options);
  const keys = lists.secrets.map((s) => engine.importKey(s));
  const standard = importStandardKeys(standardEngine, lists.secrets, lists.publicKeys);
  const { tolerance, retention } = timing(options);
  const store = options.replayStore === undefined ? createMemoryReplayStore() : options.replayStore;
  const clock = options.now ?? Date.now;
  // With a synchronous engine the decoded signature is dead before the next verify starts.
  const scratch = engine.synchronous ? new Uint8Array(32) : undefined;
  const accept = acceptOnce<T>(store, retention);

  /** The Standard Webhooks path, taken when a delivery carries `webhook-signature`. */
  function verifyStandard(body: RawBody, headers: HeadersInput, signature: string) {
    const read = readStandardHeaders(headers, signature);
    const raw = normalizeBody(body);
    const now = clock();
    checkWindow(now, read.timestamp, tolerance);
    const matched = standardMatches(standard, read, raw);
    if (matched === true) return accept(raw, read.timestamp, now, read.id);
    if (matched === false) fail('signature_mismatch', 'signature does not match');
    return (matched as Promise<boolean>).then((ok) =>
      ok ? accept(raw, read.timestamp, now, read.id) : fail('signature_mismatch', 'signature does not match'),
    );
  }

  // Written without async/await: on the Node path every step is synchronous and this costs no ticks.
  function verify(body: RawBody, headers: HeadersInput): Promise<VerifiedEvent<T>> {
    try {
      const signature = readHeader(headers, 'x-service-signature', 'malformed_signature');
      if (signature === undefined) {
        const standardSignature = readHeader(headers, 'webhook-signature', 'malformed_signature');
        if (standardSignature !== undefined) return verifyStandard(body, headers, standardSignature);
        fail('missing_header', 'missing header X-Service-Signature (or webhook-signature)');
      }
      const expected = scratch ?? new Uint8Array(32);
      const { stamp, timestamp } = readSignatureHeaders(headers, expected, signature);
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
