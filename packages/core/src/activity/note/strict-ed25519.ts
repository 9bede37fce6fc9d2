/**
 * The checks an Ed25519 verification of a note or cosignature makes before WebCrypto's: WebCrypto
 * (OpenSSL in Node) verifies cofactorless RFC 8032 equations and accepts a public key of small
 * order, so the identity key with R = identity and S = 0 "signs" every message. Refused here: a
 * weak public key (the device-key check: small order, mixed order, non-canonical), an R of small
 * order or not canonically encoded, and an S not below the group order.
 */
import { ed25519 } from '@noble/curves/ed25519';
import { checkEd25519PublicKey } from '../../encoding/ed25519-key-check.js';

const verdicts = new Map<string, boolean>();

/** Whether the raw key passes the device-key check; cached, since the torsion check multiplies. */
function acceptedKey(publicKey: Uint8Array): boolean {
  const id = Array.from(publicKey, (b) => b.toString(16).padStart(2, '0')).join('');
  let accepted = verdicts.get(id);
  if (accepted === undefined) {
    accepted = checkEd25519PublicKey(publicKey).ok;
    if (verdicts.size >= 10_000) verdicts.clear();
    verdicts.set(id, accepted);
  }
  return accepted;
}

/** S as the little-endian integer of the signature's last 32 bytes. */
function scalarOf(signature: Uint8Array): bigint {
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(signature[i]!);
  return s;
}

/**
 * Whether `publicKey` and `signature` may be handed to a verifier at all: a 32-byte key that
 * passes the device-key check, and a 64-byte signature whose R is a canonically encoded point of
 * large order and whose S is below the group order L.
 */
export function isStrictEd25519(publicKey: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (scalarOf(signature) >= ed25519.CURVE.n) return false;
  try {
    if (ed25519.Point.fromHex(signature.subarray(0, 32), false).isSmallOrder()) return false;
  } catch {
    return false;
  }
  return acceptedKey(publicKey);
}

/** Whether a witness or log public key is refused: the device-key check, as at registration. */
export function isWeakEd25519Key(publicKey: Uint8Array): boolean {
  return !acceptedKey(publicKey);
}
