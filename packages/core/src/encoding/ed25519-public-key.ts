/**
 * Ed25519 public keys as users give them (SPKI PEM or raw base64url): parsed to the stored raw form,
 * private keys and weak keys refused. Devices, trusted audit keys and webhook signing keys all read
 * keys this way, so it sits beneath each of them.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { isAcceptedEd25519Key } from './ed25519-key-check.js';

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
 * that is not Ed25519, and weak keys (see `checkEd25519PublicKey`). Never echoes the input.
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
  // Through the verdicts' cache, so the key's first signature (a workload's first push) finds its
  // verdict there instead of paying the check again.
  const key = raw.toString('base64url');
  if (!isAcceptedEd25519Key(key)) return { ok: false, reason: 'weak_key' };
  return { ok: true, key };
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
