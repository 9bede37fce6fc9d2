/**
 * A valid witness public key for tests that register one: the Ed25519 public key of a fixed seed,
 * raw in standard base64. Arbitrary 32 bytes would not do: witness keys get the device-key check,
 * and most byte strings are no point, or a point of mixed order.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The public key of the seed of 32 bytes `n` (distinct `n`, distinct keys). */
export function witnessPublicKey(n: number): string {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.alloc(32, n)]),
    format: 'der',
    type: 'pkcs8',
  });
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
}
