/** Token, device-key and `client_sig` primitives. */
import {
  createHash,
  createPublicKey,
  type KeyObject,
  randomBytes,
  verify as verifySignature,
} from 'node:crypto';
import canonicalize from 'canonicalize';

/** Prefix of built-in API tokens. */
export const TOKEN_PREFIX = 'lk_';

/** A new API token: `lk_` + 32 random bytes, base64url. */
export function generateApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Parses an Ed25519 public key given as SPKI PEM or as the raw 32 bytes in base64url, and returns the
 * raw key in base64url (the stored form), or null when it is not an Ed25519 public key.
 */
export function normalizeEd25519PublicKey(input: string): string | null {
  const text = input.trim();
  try {
    if (text.startsWith('-----BEGIN')) {
      const key = createPublicKey({ key: text, format: 'pem' });
      if (key.asymmetricKeyType !== 'ed25519') return null;
      const der = key.export({ format: 'der', type: 'spki' });
      return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64url');
    }
    if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
    const raw = Buffer.from(text, 'base64url');
    if (raw.length !== 32) return null;
    createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    return raw.toString('base64url');
  } catch {
    return null;
  }
}

const keyCache = new Map<string, KeyObject>();

/** The KeyObject of a stored raw Ed25519 key, cached: parsing costs more than verifying. */
export function ed25519KeyObject(rawBase64Url: string): KeyObject {
  let key = keyCache.get(rawBase64Url);
  if (!key) {
    key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(rawBase64Url, 'base64url')]),
      format: 'der',
      type: 'spki',
    });
    if (keyCache.size >= 10_000) keyCache.clear();
    keyCache.set(rawBase64Url, key);
  }
  return key;
}

/** Where a push is addressed; added to the signed payload so a signature cannot be replayed elsewhere. */
export interface PushAddress {
  organization: string;
  project: string;
  environment: string;
}

/**
 * The exact bytes a device signs for a push: the RFC 8785 (JCS) canonical JSON of the push body
 * without `client_sig`, with `organization`, `project` and `environment` added.
 */
export function pushSigningPayload(body: object, address: PushAddress): string {
  const { client_sig: _ignored, ...rest } = body as Record<string, unknown>;
  return (
    canonicalize({
      ...rest,
      organization: address.organization,
      project: address.project,
      environment: address.environment,
    }) ?? ''
  );
}

/** Verifies a base64url Ed25519 `client_sig` over the push payload. Never throws. */
export function verifyClientSignature(
  publicKeyRaw: string,
  body: object,
  address: PushAddress,
  clientSig: string,
): boolean {
  try {
    if (!/^[A-Za-z0-9_-]{86}$/.test(clientSig)) return false;
    const signature = Buffer.from(clientSig, 'base64url');
    if (signature.length !== 64) return false;
    return verifySignature(
      null,
      Buffer.from(pushSigningPayload(body, address)),
      ed25519KeyObject(publicKeyRaw),
      signature,
    );
  } catch {
    return false;
  }
}
