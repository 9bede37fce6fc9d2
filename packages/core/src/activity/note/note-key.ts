/**
 * Keys of C2SP signed notes (https://c2sp.org/signed-note): key names, key hashes and the verifier
 * key string `<name>+<hex key hash>+<base64(alg || public key)>` that Go's `note.NewVerifier` and
 * witnesses take. WebCrypto only, so the client entry can use it in a browser.
 */
import { concatBytes, fromBase64, toBase64 } from '../../encoding/base64.js';
import { isStrictEd25519 } from './strict-ed25519.js';

/** Signature algorithm byte of a plain Ed25519 note signature. */
export const ALG_ED25519 = 0x01;
/** Signature algorithm byte of a timestamped Ed25519 witness cosignature (C2SP tlog-cosignature). */
export const ALG_COSIGNATURE_V1 = 0x04;

const encoder = new TextEncoder();

/**
 * Whether `name` may name a note key: non-empty, well-formed Unicode, no whitespace and no `+`
 * (Go's `isValidName`: a `+` would make the verifier key string ambiguous).
 */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && isNoteSafe(name, false) && !/[\s+\u0085]/.test(name);
}

/**
 * Whether `text` is well-formed Unicode (no lone surrogate, so it has a UTF-8 form) without ASCII
 * control characters, but newlines when `newlines` is true: what Go's `note.Open` accepts.
 */
export function isNoteSafe(text: string, newlines: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && !(newlines && c === 0x0a)) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** A copy on a plain ArrayBuffer, as WebCrypto's types ask (a Node Buffer may sit on a shared pool). */
const owned = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** SHA-256 of `bytes`. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', owned(bytes)));
}

/** The 4-byte key hash: the first bytes of SHA-256(name || 0x0A || alg || public key). */
export async function keyHash(name: string, alg: number, publicKey: Uint8Array): Promise<Uint8Array> {
  const digest = await sha256(concatBytes(encoder.encode(`${name}\n`), Uint8Array.of(alg), publicKey));
  return digest.slice(0, 4);
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The verifier key string of an Ed25519 public key under `name` with algorithm `alg`. */
export async function verifierKey(name: string, publicKey: Uint8Array, alg = ALG_ED25519): Promise<string> {
  const hash = await keyHash(name, alg, publicKey);
  return `${name}+${hex(hash)}+${toBase64(concatBytes(Uint8Array.of(alg), publicKey))}`;
}

/** A verifier key, parsed and checked. */
export interface NoteKey {
  name: string;
  alg: number;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  keyHash: Uint8Array;
}

/**
 * Parses a verifier key string; null when it is malformed, its key hash does not match, or its
 * algorithm is not one of `algs` with a 32-byte Ed25519 key.
 */
export async function parseVerifierKey(
  text: string,
  algs: readonly number[] = [ALG_ED25519],
): Promise<NoteKey | null> {
  // The base64 key may itself hold `+`: split at the first two only, as Go's `chop` does.
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first === -1 || second === -1) return null;
  const [name, hash16, key64] = [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(hash16)) return null;
  const key = fromBase64(key64);
  if (key?.length !== 33 || !algs.includes(key[0]!)) return null;
  const alg = key[0]!;
  const publicKey = key.slice(1);
  const hash = await keyHash(name, alg, publicKey);
  return hex(hash) === hash16 ? { name, alg, publicKey, keyHash: hash } : null;
}

/**
 * Whether `signature` is `publicKey`'s Ed25519 signature of `message`: false for any malformed
 * input, a weak key, a small-order R or a non-canonical S (see `strict-ed25519.ts`).
 */
export async function verifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (!isStrictEd25519(publicKey, signature)) return false;
  try {
    const key = await crypto.subtle.importKey('raw', owned(publicKey), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, owned(signature), owned(message));
  } catch {
    return false;
  }
}

/** Whether two byte arrays are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
