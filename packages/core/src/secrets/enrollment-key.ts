/** The public key a device enrolls with: parsed strictly, or refused with a message that says why. */

import { parseEd25519PublicKey } from '../encoding/ed25519-public-key.js';
import { keyRefusal } from '../encoding/key-refusal.js';

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
