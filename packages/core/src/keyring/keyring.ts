/**
 * Encryption at rest for what the store must be able to read back (audit webhook signing secrets,
 * secret values): AES-256-GCM under a keyring the host supplies. Each sealed value names the key
 * that sealed it, so keys can rotate: new values use the current key, old ones stay readable while
 * their key is in the ring, and a re-encrypt routine moves them to the current key. Each value is
 * bound to where it is stored (the additional data, e.g. `audit_webhook:<id>:signing_secret`), so a
 * sealed value copied into another row does not open.
 *
 * Sealed form: `lk1.<key id>.<12-byte nonce, base64url>.<ciphertext + 16-byte tag, base64url>`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { LatchkeyError } from '../errors/latchkey-error.js';

const VERSION = 'lk1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The host's keys: which one seals new values, and every one that may still open old values. */
export interface Keyring {
  readonly current: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

/**
 * A keyring from `{ current, keys: { id: key } }`, keys as 32 bytes or their base64/base64url text.
 * Throws a `RangeError` for a key that is not 32 bytes, a bad id, or a `current` not in `keys`.
 */
export function createKeyring(options: {
  current: string;
  keys: Record<string, string | Uint8Array>;
}): Keyring {
  const keys = new Map<string, Buffer>();
  for (const [id, value] of Object.entries(options.keys)) {
    if (!KEY_ID.test(id)) throw new RangeError(`keyring: key id "${id}" must be 1-32 of A-Z a-z 0-9 _ -`);
    const key = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.from(value);
    if (key.length !== 32) throw new RangeError(`keyring: key "${id}" is not 32 bytes`);
    keys.set(id, key);
  }
  if (!keys.has(options.current))
    throw new RangeError(`keyring: the current key "${options.current}" is not in it`);
  return { current: options.current, keys };
}

/**
 * A keyring from text such as `LATCHKEY_KEYRING`: comma-separated `id:base64key` entries, the first
 * one current (`k2:…,k1:…` after a rotation to `k2`).
 */
export function parseKeyring(text: string): Keyring {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new RangeError('keyring: no keys');
  const keys: Record<string, string> = Object.create(null);
  for (const entry of entries) {
    const at = entry.indexOf(':');
    if (at <= 0) throw new RangeError('keyring: each entry is id:base64key');
    const id = entry.slice(0, at);
    if (Object.hasOwn(keys, id)) throw new RangeError(`keyring: key id "${id}" appears twice`);
    keys[id] = entry.slice(at + 1);
  }
  return createKeyring({ current: entries[0]!.slice(0, entries[0]!.indexOf(':')), keys });
}

/** A new random 32-byte key, base64url: for a keyring entry. */
export const generateKeyringKey = (): string => randomBytes(32).toString('base64url');

/** Seals `plaintext` under the current key, bound to `context`. */
export function seal(keyring: Keyring, plaintext: string, context: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.keys.get(keyring.current)!, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${keyring.current}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
}

/** The id of the key that sealed `sealed`, or null when it is not a sealed value. */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split('.');
  return parts.length === 4 && parts[0] === VERSION && KEY_ID.test(parts[1]!) ? parts[1]! : null;
}

/** Whether `sealed` was sealed with another key than the current one (the re-encrypt routine's test). */
export const needsReseal = (keyring: Keyring, sealed: string): boolean =>
  sealedKeyId(sealed) !== keyring.current;

/** Seconds a client is told to wait when a value is sealed with a key this instance lacks. */
const MISSING_KEY_RETRY_SECONDS = 30;

/**
 * A value sealed with a key id this keyring lacks (another instance rotated to a key this one has
 * not been given yet): 503 `service_unavailable` with `Retry-After`, not a 500. `keyId` is for the
 * operator's log; the answer does not name it.
 */
export class MissingKeyError extends LatchkeyError {
  constructor(readonly keyId: string) {
    super('service_unavailable', 'A stored value is sealed with a key this server does not have yet.', {
      retryAfterSeconds: MISSING_KEY_RETRY_SECONDS,
    });
  }
}

/** The key id of a {@link MissingKeyError} (from any copy of this package), else null. */
export function missingKeyId(error: unknown): string | null {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'service_unavailable') return null;
  const keyId = (error as { keyId?: unknown }).keyId;
  return typeof keyId === 'string' ? keyId : null;
}

/**
 * Opens a sealed value bound to `context`. A value sealed by a key not in the ring throws a
 * {@link MissingKeyError} (503); one that is malformed, tampered with or bound elsewhere throws a 500
 * `internal_error` whose message names the key id at most, never the value.
 */
export function open(keyring: Keyring, sealed: string, context: string): string {
  const parts = sealed.split('.');
  const keyId = sealedKeyId(sealed);
  if (keyId === null) throw new LatchkeyError('internal_error', 'a stored value is not sealed');
  const key = keyring.keys.get(keyId);
  if (!key) throw new MissingKeyError(keyId);
  const nonce = Buffer.from(parts[2]!, 'base64url');
  const body = Buffer.from(parts[3]!, 'base64url');
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
    throw new LatchkeyError('internal_error', 'a stored value is malformed');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new LatchkeyError('internal_error', `a stored value does not open with key "${keyId}"`);
  }
}

/** Opens `sealed` and seals it again under the current key (for the re-encrypt routine). */
export function reseal(keyring: Keyring, sealed: string, context: string): string {
  return seal(keyring, open(keyring, sealed, context), context);
}
