/** The public key a device enrolls with: parsed strictly, or refused with a message that says why. */

import { type ParsedPublicKey, parseEd25519PublicKey } from '../encoding/ed25519-public-key.js';
import { LatchkeyError } from '../errors/latchkey-error.js';

type Refusal = Extract<ParsedPublicKey, { ok: false }>['reason'];

/** Each refusal's message and the detail for `body.public_key`. */
const REFUSALS: Record<Refusal, [message: string, detail: string]> = {
  // Says what was sent without repeating any of it: the key must never reach a response or a log.
  private_key: [
    'public_key is a private key. Send the public key only (SPKI PEM "BEGIN PUBLIC KEY" or the raw 32 bytes in base64url), and treat this private key as exposed.',
    'a private key, not a public key',
  ],
  not_ed25519: [
    'public_key must be an Ed25519 public key.',
    'not an Ed25519 key (SPKI PEM or raw 32 bytes base64url)',
  ],
  weak_key: [
    'public_key is a weak Ed25519 key (small order, mixed order or a non-canonical encoding); generate a new key pair.',
    'a weak Ed25519 key',
  ],
};

/**
 * The stored form (raw base64url) of the public key a device enrolls with, as
 * {@link parseEd25519PublicKey} accepts it; otherwise a 400 `invalid_request` on `body.public_key`
 * that says why, never echoing the key.
 */
export function enrollmentKey(publicKey: string): string {
  const parsed = parseEd25519PublicKey(publicKey);
  if (parsed.ok) return parsed.key;
  throw keyRefusal(parsed.reason);
}

/**
 * The 400 for a refused `body.public_key`: the one message per reason, shared by every route that
 * takes an Ed25519 public key (devices, witnesses), never echoing the key.
 */
export function keyRefusal(reason: Refusal): LatchkeyError {
  const [message, detail] = REFUSALS[reason];
  return new LatchkeyError('invalid_request', message, {
    details: [{ path: 'body.public_key', message: detail }],
  });
}
