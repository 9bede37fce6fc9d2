/**
 * Signing of Standard Webhooks deliveries with node:crypto: the sender in `@latchkey/core` signs with
 * these very functions, and the verifier checks with the same format code, so the two cannot drift.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { normalizeBody, type RawBody } from '../body.js';
import { nowSeconds, timestampString } from '../signing.js';
import { contentPrefix, STANDARD_HEADERS, standardSecretKey, toPublicKeyString } from './format.js';
import { standardContent, standardMac } from './node-engine.js';

/** The three headers of a Standard Webhooks delivery. */
export type StandardSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Input of {@link standardSignatureHeaders}: HMAC secrets, Ed25519 private keys, or both. */
export interface StandardSignInput {
  /** `whsec_` secrets (standard base64 after the prefix): one `v1` signature each. */
  secrets?: readonly string[];
  /** Ed25519 private keys (PKCS#8 PEM, or KeyObjects): one `v1a` signature each. */
  privateKeys?: readonly (KeyObject | string)[];
  /** The message id: the event id. */
  eventId: string;
  /** The exact body bytes (or text). */
  body: RawBody;
  /** Unix seconds; default now. Every attempt is signed afresh. */
  timestamp?: number;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with a `whsec_` secret. */
function signStandard(secret: string, prefix: string, body: string | Uint8Array): string {
  const key = standardSecretKey(secret);
  if (!key) throw new TypeError('a standard-webhooks secret is whsec_ followed by standard base64');
  return 'v1,' + standardMac(key, prefix, body).toString('base64');
}

/** `v1a,<base64 Ed25519 signature of "<id>.<timestamp>.<body>">`. */
function signStandardEd25519(
  privateKey: KeyObject | string,
  prefix: string,
  body: string | Uint8Array,
): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  return 'v1a,' + sign(null, standardContent(prefix, body), key).toString('base64');
}

/**
 * The headers of one Standard Webhooks attempt: every secret and private key given signs, and the
 * signatures are listed space-separated (during a rotation's grace period, old and new).
 */
export function standardSignatureHeaders(input: StandardSignInput): StandardSignatureHeaders {
  if (typeof input.eventId !== 'string' || input.eventId === '' || /[\s.]/.test(input.eventId)) {
    throw new TypeError('eventId must be a non-empty string without dots or spaces');
  }
  const timestamp = timestampString(input.timestamp ?? nowSeconds());
  const body = normalizeBody(input.body);
  const prefix = contentPrefix(input.eventId, timestamp);
  const signatures = [
    ...(input.secrets ?? []).map((secret) => signStandard(secret, prefix, body)),
    ...(input.privateKeys ?? []).map((key) => signStandardEd25519(key, prefix, body)),
  ];
  if (signatures.length === 0) throw new TypeError('give at least one secret or private key');
  return {
    [STANDARD_HEADERS.id]: input.eventId,
    [STANDARD_HEADERS.timestamp]: timestamp,
    [STANDARD_HEADERS.signature]: signatures.join(' '),
  } as StandardSignatureHeaders;
}

/** A new Standard Webhooks secret: `whsec_` + standard base64 of 32 random bytes. */
export function generateStandardSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/** A new Ed25519 signing key pair: the public key as `whpk_…`, the private key as PKCS#8 PEM. */
export function generateSigningKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x!, 'base64url');
  return {
    publicKey: toPublicKeyString(raw),
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

/** The `whpk_` public key of an Ed25519 private key (PKCS#8 PEM or KeyObject). */
export function publicKeyOf(privateKey: KeyObject | string): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const jwk = key.export({ format: 'jwk' });
  return toPublicKeyString(Buffer.from(jwk.x!, 'base64url'));
}
