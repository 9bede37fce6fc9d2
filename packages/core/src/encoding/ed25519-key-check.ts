/**
 * Strict checks of Ed25519 public keys. A key of small order makes a forged signature verify (the
 * identity point accepts R = identity, S = 0 for every message), and a key with a torsion component
 * or a non-canonical encoding lets different verifiers disagree about one signature. Node's
 * `crypto.verify` (OpenSSL) checks none of this, so every device key passes through here first.
 */
// @noble/curves v1 on purpose: v2 is ESM-only and needs Node >= 20.19, while our engines say
// Node >= 20 and the package also ships CommonJS. Its point decoding is audited; we do not decode
// curve points by hand.
import { ed25519 } from '@noble/curves/ed25519';

/** Why a public key is refused. */
export type WeakKeyReason = 'not_a_point' | 'non_canonical' | 'small_order' | 'not_torsion_free';

/** The verdict of {@link checkEd25519PublicKey}. */
export type Ed25519KeyVerdict = { ok: true } | { ok: false; reason: WeakKeyReason };

/**
 * Checks the 32 bytes of an Ed25519 public key: a canonical encoding (y < p, and no sign bit on
 * x = 0; RFC 8032 decoding, not the laxer ZIP-215), not of small order, and torsion-free (in the
 * prime-order subgroup). Pure; see {@link isAcceptedEd25519Key} for the cached form.
 */
export function checkEd25519PublicKey(raw: Uint8Array): Ed25519KeyVerdict {
  if (raw.length !== 32) return { ok: false, reason: 'not_a_point' };
  let point: InstanceType<typeof ed25519.Point>;
  try {
    point = ed25519.Point.fromHex(raw, false);
  } catch {
    // Decodable only under ZIP-215's relaxed rules means the encoding is the problem, not the point.
    try {
      ed25519.Point.fromHex(raw, true);
      return { ok: false, reason: 'non_canonical' };
    } catch {
      return { ok: false, reason: 'not_a_point' };
    }
  }
  if (point.isSmallOrder()) return { ok: false, reason: 'small_order' };
  if (!point.isTorsionFree()) return { ok: false, reason: 'not_torsion_free' };
  return { ok: true };
}

const verdicts = new Map<string, boolean>();

/**
 * Whether a stored raw key (base64url) passes {@link checkEd25519PublicKey}. Cached per key, like the
 * parsed KeyObject: the torsion check is a scalar multiplication, too slow to repeat on every push.
 */
export function isAcceptedEd25519Key(rawBase64Url: string): boolean {
  let accepted = verdicts.get(rawBase64Url);
  if (accepted === undefined) {
    accepted = checkEd25519PublicKey(Buffer.from(rawBase64Url, 'base64url')).ok;
    if (verdicts.size >= 10_000) verdicts.clear();
    verdicts.set(rawBase64Url, accepted);
  }
  return accepted;
}
