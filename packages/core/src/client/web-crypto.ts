/**
 * The client's hashing and signature checks through WebCrypto (`crypto.subtle`), for browsers
 * (the dashboard's Verify): `verifyActivityExport` there runs the same walk as in the CLI, with
 * these primitives. The hashed and signed texts come from the crypto-free forms the server uses.
 */
import { type Checkpoint, checkpointSignedText } from '../activity/checkpoint/checkpoint-form.js';
import type { ActivityEvent } from '../model/model.js';
import { type ChainCrypto, eventChainText } from './chain-crypto.js';

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(bytes)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Lowercase hex SHA-256 of the UTF-8 of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * Bytes of base64 or base64url text, read as leniently as Node's `Buffer.from(…, 'base64url')`:
 * characters outside the alphabet are skipped and padding is optional.
 */
function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const clean = text
    .split('=')[0]!
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  const usable = clean.length % 4 === 1 ? clean.slice(0, -1) : clean;
  const binary = atob(usable + '='.repeat((4 - (usable.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The hash `event` should carry: its content placed after `prev_hash` at its own `seq`. */
export async function expectedEventHash(event: ActivityEvent): Promise<string> {
  return sha256Hex(eventChainText(event));
}

/** An Ed25519 public key (raw base64url, or SPKI PEM) for WebCrypto's verify. */
function importPublicKey(publicKey: string): Promise<CryptoKey> {
  const algorithm = { name: 'Ed25519' };
  if (publicKey.includes('BEGIN PUBLIC KEY')) {
    const body = publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '');
    return crypto.subtle.importKey('spki', base64Bytes(body), algorithm, false, ['verify']);
  }
  return crypto.subtle.importKey('raw', base64Bytes(publicKey), algorithm, false, ['verify']);
}

/**
 * Whether `checkpoint` is signed by `publicKey` (raw base64url, or SPKI PEM), as
 * `verifyCheckpoint` answers on the server. The key comes from the verifier, never from the
 * checkpoint itself: a forger would put their own key there.
 */
export async function verifyCheckpointSignature(checkpoint: Checkpoint, publicKey: string): Promise<boolean> {
  try {
    const key = await importPublicKey(publicKey);
    const signature = base64Bytes(checkpoint.signature);
    const message = encoder.encode(checkpointSignedText(checkpoint));
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message);
  } catch {
    return false;
  }
}

/** The export check's primitives on WebCrypto, for browsers. */
export const webChainCrypto: ChainCrypto = { sha256Hex, verifyCheckpoint: verifyCheckpointSignature };
