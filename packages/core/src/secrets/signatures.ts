/** Device-key and `client_sig` primitives. */
import { createPrivateKey, createPublicKey, type KeyObject, verify as verifySignature } from 'node:crypto';
import canonicalize from 'canonicalize';
import { checkEd25519PublicKey, isAcceptedEd25519Key } from './device-key-check.js';

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The outcome of {@link parseEd25519PublicKey}. */
export type ParsedPublicKey =
  | { ok: true; key: string }
  | { ok: false; reason: 'private_key' | 'not_ed25519' | 'weak_key' };

/**
 * Parses an Ed25519 public key given as SPKI PEM (`BEGIN PUBLIC KEY`) or as the raw 32 bytes in
 * base64url, and returns the raw key in base64url (the stored form). Refuses a private key in any
 * form it can recognise (its public half could be derived, but the sender has leaked it), anything
 * that is not Ed25519, and weak keys (see {@link checkEd25519PublicKey}). Never echoes the input.
 */
export function parseEd25519PublicKey(input: string): ParsedPublicKey {
  const text = input.trim();
  if (looksPrivate(text)) return { ok: false, reason: 'private_key' };
  let raw: Buffer;
  try {
    if (text.startsWith('-----BEGIN')) {
      // Only the SPKI label: createPublicKey would also accept a private key and derive its public half.
      if (!/^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----$/.test(text)) {
        return { ok: false, reason: 'not_ed25519' };
      }
      const key = createPublicKey({ key: text, format: 'pem' });
      if (key.type !== 'public' || key.asymmetricKeyType !== 'ed25519') {
        return { ok: false, reason: 'not_ed25519' };
      }
      raw = key.export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length);
    } else {
      // A raw 32-byte private seed looks exactly like a raw public key; nothing can tell them apart.
      if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return { ok: false, reason: 'not_ed25519' };
      raw = Buffer.from(text, 'base64url');
      if (raw.length !== 32) return { ok: false, reason: 'not_ed25519' };
    }
  } catch {
    return { ok: false, reason: 'not_ed25519' };
  }
  if (!checkEd25519PublicKey(raw).ok) return { ok: false, reason: 'weak_key' };
  return { ok: true, key: raw.toString('base64url') };
}

/** True when the text is, or plainly contains, a private key: PEM of any kind, bare PKCS#8, or a JWK. */
function looksPrivate(text: string): boolean {
  // PKCS#8, ENCRYPTED, OPENSSH, EC, RSA, DSA: every private-key PEM label ends in "PRIVATE KEY".
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text)) return true;
  if (text.startsWith('-----BEGIN')) return succeeds(() => createPrivateKey({ key: text, format: 'pem' }));
  if (text.startsWith('{')) {
    try {
      const jwk = JSON.parse(text) as unknown;
      return typeof jwk === 'object' && jwk !== null && 'd' in jwk;
    } catch {
      return false;
    }
  }
  // Base64 or base64url of a DER private key (PKCS#8 or the older per-algorithm forms).
  if (/^[A-Za-z0-9+/_=\s-]{60,}$/.test(text)) {
    const der = Buffer.from(text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return (
      succeeds(() => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })) ||
      succeeds(() => createPrivateKey({ key: der, format: 'der', type: 'pkcs1' })) ||
      succeeds(() => createPrivateKey({ key: der, format: 'der', type: 'sec1' }))
    );
  }
  return false;
}

function succeeds(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

/**
 * The raw base64url form of an Ed25519 public key (see {@link parseEd25519PublicKey}), or null when
 * it is refused for any reason.
 */
export function normalizeEd25519PublicKey(input: string): string | null {
  const parsed = parseEd25519PublicKey(input);
  return parsed.ok ? parsed.key : null;
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

/**
 * Verifies a base64url Ed25519 `client_sig` over the push payload. Never throws. A weak stored key
 * (small order, mixed order, non-canonical) never verifies anything, whatever the signature.
 */
export function verifyClientSignature(
  publicKeyRaw: string,
  body: object,
  address: PushAddress,
  clientSig: string,
): boolean {
  try {
    if (!isAcceptedEd25519Key(publicKeyRaw)) return false;
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
