/**
 * The refusal of an Ed25519 public key a request sends (a device's, a witness's): one message per
 * reason, with the detail for `body.public_key`, never echoing the key.
 */

import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ParsedPublicKey } from './ed25519-public-key.js';

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
 * The 400 for a refused `body.public_key`: the one message per reason, shared by every route that
 * takes an Ed25519 public key (devices, witnesses), never echoing the key.
 */
export function keyRefusal(reason: Refusal): LatchkeyError {
  const [message, detail] = REFUSALS[reason];
  return new LatchkeyError('invalid_request', message, {
    details: [{ path: 'body.public_key', message: detail }],
  });
}
