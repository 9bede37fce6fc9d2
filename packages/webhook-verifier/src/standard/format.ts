/**
 * The Standard Webhooks wire format, shared by the Node and Web Crypto engines and by the sender:
 * header names, secret and public key prefixes, the signed content `<id>.<timestamp>.<body>` and the
 * `webhook-signature` list (`v1,<base64>` HMAC-SHA256, `v1a,<base64>` Ed25519, space-separated).
 */
import { WebhookVerificationError } from '../errors.js';

/** Header names of a Standard Webhooks delivery (lowercase, as the specification writes them). */
export const STANDARD_HEADERS = {
  /** The message id: Latchkey sends the event id. Signed, and the replay key. */
  id: 'webhook-id',
  /** Unix seconds at which this attempt was signed. */
  timestamp: 'webhook-timestamp',
  /** Space-separated `v1,<base64>` and `v1a,<base64>` signatures. */
  signature: 'webhook-signature',
} as const;

/** Prefix of a Standard Webhooks public key: `whpk_` + standard base64 of the raw 32-byte Ed25519 key. */
export const PUBLIC_KEY_PREFIX = 'whpk_';

/** The signature schemes a delivery can carry. */
export type SignatureScheme = 'latchkey' | 'standard-webhooks' | 'standard-webhooks-ed25519';

/** Every scheme, the default first. */
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = [
  'latchkey',
  'standard-webhooks',
  'standard-webhooks-ed25519',
];

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 (padded) to bytes, or null when it is not exactly that. */
export function fromBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Bytes to standard base64 (padded). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/**
 * The HMAC key of a `whsec_` secret as the Standard Webhooks libraries read it: the part after the
 * prefix, decoded as standard base64. Null when it does not decode (a Latchkey-scheme secret in
 * base64url, say): such a secret can only verify the `latchkey` scheme.
 */
export function standardSecretKey(secret: string): Uint8Array | null {
  const key = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  return key && key.length > 0 ? key : null;
}

/** The raw 32 bytes of a `whpk_` public key; throws a TypeError for anything else. */
export function publicKeyBytes(key: string): Uint8Array {
  const raw = typeof key === 'string' && key.startsWith(PUBLIC_KEY_PREFIX) ? fromBase64(key.slice(5)) : null;
  if (raw === null || raw.length !== 32) {
    throw new TypeError(
      'publicKey must be whpk_ followed by the standard base64 of a raw 32-byte Ed25519 key',
    );
  }
  return raw;
}

/** A `whpk_` public key for the raw 32 bytes of an Ed25519 public key. */
export function toPublicKeyString(raw: Uint8Array): string {
  return PUBLIC_KEY_PREFIX + toBase64(raw);
}

/** The signatures a `webhook-signature` header lists, decoded; unknown versions are skipped. */
export interface StandardSignatures {
  v1: Uint8Array[];
  v1a: Uint8Array[];
}

/**
 * Parses `webhook-signature`. Entries of other versions, and entries that do not decode to a
 * signature of their version's length, are skipped as the reference libraries skip them (they never
 * match); a header with no usable entry at all is `malformed_signature`.
 */
export function parseStandardSignatures(value: string): StandardSignatures {
  const found: StandardSignatures = { v1: [], v1a: [] };
  for (const entry of value.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0) continue;
    const version = entry.slice(0, comma);
    if (version !== 'v1' && version !== 'v1a') continue;
    const bytes = fromBase64(entry.slice(comma + 1));
    if (bytes !== null && bytes.length === (version === 'v1' ? 32 : 64)) found[version].push(bytes);
  }
  if (found.v1.length + found.v1a.length === 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'webhook-signature has no v1 (base64 of 32 bytes) or v1a (base64 of 64 bytes) signature',
    );
  }
  return found;
}

/** The prefix of the signed content, `<id>.<timestamp>.`; the body follows it byte for byte. */
export function contentPrefix(id: string, timestamp: string): string {
  return `${id}.${timestamp}.`;
}
