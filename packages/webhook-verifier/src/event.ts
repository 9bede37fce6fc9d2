import { WebhookVerificationError } from './errors.js';

/**
 * The loose shape every delivered event has: an `id` (what replays are recognised by) and, for Latchkey events,
 * a `type`. Pass your own type parameter for the full payload.
 */
export interface WebhookEvent {
  id: string;
  type?: string;
  [key: string]: unknown;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function decode(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  try {
    return fatalUtf8.decode(body);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'body is not valid UTF-8');
  }
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError('invalid_body', 'body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function idOf(value: Record<string, unknown>): string {
  const id = value['id'];
  if (typeof id !== 'string' || id === '') {
    throw new WebhookVerificationError('invalid_body', 'body must have a non-empty string "id"');
  }
  return id;
}

/**
 * A delivery that passed every check: authentic, within the tolerance, and seen for the first time.
 * The body is parsed on the first call to {@link VerifiedEvent.json}, not before: verification
 * needs only the id.
 */
export class VerifiedEvent<T = WebhookEvent> {
  /** The event `id` read from the signed body (or the signed `webhook-id`); the replay key. */
  readonly id: string;
  /** `X-Service-Timestamp` in unix seconds. */
  readonly timestamp: number;
  #body: string | Uint8Array;
  #parsed: T | undefined;
  #idFromBody: boolean;

  /**
   * @internal `idFromBody` false: the id came from a signed header (`webhook-id`), and the body need
   * not repeat it.
   */
  constructor(id: string, timestamp: number, body: string | Uint8Array, parsed?: T, idFromBody = true) {
    this.id = id;
    this.timestamp = timestamp;
    this.#body = body;
    this.#parsed = parsed;
    this.#idFromBody = idFromBody;
  }

  /** The body as text (UTF-8). Throws `invalid_body` if the bytes are not UTF-8. */
  text(): string {
    return decode(this.#body);
  }

  /**
   * The parsed event, cached. Throws `invalid_body` if the signed body is not a JSON object whose
   * `id` is the one the replay check used (only a sender holding the secret could produce that).
   */
  json(): T {
    if (this.#parsed === undefined) {
      const value = parseObject(this.text());
      if (this.#idFromBody && value['id'] !== this.id) {
        throw new WebhookVerificationError('invalid_body', 'body has more than one "id" member');
      }
      this.#parsed = value as T;
    }
    return this.#parsed;
  }
}

/** An id longer than this is still accepted, through the parsing path. */
const FAST_ID_MAX = 256;

function skipWsBytes(b: Uint8Array, i: number): number {
  let c = b[i];
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i];
  return i;
}

function skipWsString(s: string, i: number): number {
  let c = s.charCodeAt(i);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++i);
  return i;
}

/**
 * The common case without parsing: Latchkey serialises `id` as the first member, a plain ASCII string.
 * Returns undefined whenever the body does not start that way, and the caller parses instead.
 */
function leadingIdFromBytes(b: Uint8Array): string | undefined {
  let i = skipWsBytes(b, 0);
  if (b[i] !== 0x7b) return undefined;
  i = skipWsBytes(b, i + 1);
  if (b[i] !== 0x22 || b[i + 1] !== 0x69 || b[i + 2] !== 0x64 || b[i + 3] !== 0x22) return undefined;
  i = skipWsBytes(b, i + 4);
  if (b[i] !== 0x3a) return undefined;
  i = skipWsBytes(b, i + 1);
  if (b[i] !== 0x22) return undefined;
  const start = i + 1;
  const limit = Math.min(b.length, start + FAST_ID_MAX);
  for (let j = start; j < limit; j++) {
    const c = b[j]!;
    if (c === 0x22) {
      if (j === start) return undefined;
      const k = skipWsBytes(b, j + 1);
      return b[k] === 0x2c || b[k] === 0x7d ? ascii(b, start, j) : undefined;
    }
    if (c < 0x20 || c > 0x7e || c === 0x5c) return undefined;
  }
  return undefined;
}

/** Printable ASCII bytes to a string; a Node Buffer does it natively. */
function ascii(b: Uint8Array, start: number, end: number): string {
  const node = b as Uint8Array & { latin1Slice?: (start: number, end: number) => string };
  if (typeof node.latin1Slice === 'function') return node.latin1Slice(start, end);
  return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
}

function leadingIdFromString(s: string): string | undefined {
  let i = skipWsString(s, 0);
  if (s.charCodeAt(i) !== 0x7b) return undefined;
  i = skipWsString(s, i + 1);
  if (!s.startsWith('"id"', i)) return undefined;
  i = skipWsString(s, i + 4);
  if (s.charCodeAt(i) !== 0x3a) return undefined;
  i = skipWsString(s, i + 1);
  if (s.charCodeAt(i) !== 0x22) return undefined;
  const start = i + 1;
  const limit = Math.min(s.length, start + FAST_ID_MAX);
  for (let j = start; j < limit; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x22) {
      if (j === start) return undefined;
      const k = skipWsString(s, j + 1);
      const next = s.charCodeAt(k);
      return next === 0x2c || next === 0x7d ? s.slice(start, j) : undefined;
    }
    if (c < 0x20 || c > 0x7e || c === 0x5c) return undefined;
  }
  return undefined;
}

/**
 * Reads the event id from a verified body and wraps it. Throws `invalid_body` unless the body is a
 * JSON object with a non-empty string `id`.
 */
export function toVerifiedEvent<T>(body: string | Uint8Array, timestamp: number): VerifiedEvent<T> {
  const fast = typeof body === 'string' ? leadingIdFromString(body) : leadingIdFromBytes(body);
  if (fast !== undefined) return new VerifiedEvent<T>(fast, timestamp, body);
  const value = parseObject(decode(body));
  return new VerifiedEvent<T>(idOf(value), timestamp, body, value as T);
}
