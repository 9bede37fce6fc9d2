/**
 * Secret values at rest. With a keyring, every value a push writes is sealed (AES-256-GCM, see
 * keyring.ts) and bound to its environment and key, so a sealed value copied to another key or
 * environment does not open; a pull opens them. Without a keyring values are stored as sent, and a
 * value stored that way before a keyring was configured still reads back until the re-encrypt
 * routine seals it.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import { secretValueContext } from '../keyring/contexts.js';
import { type Keyring, open, seal, sealedKeyId } from '../keyring/keyring.js';

/** What to store for `value` of `key` in the environment: sealed when there is a keyring. */
export function sealSecretValue(
  keyring: Keyring | undefined,
  environmentId: string,
  key: string,
  value: string,
): string {
  return keyring ? seal(keyring, value, secretValueContext(environmentId, key)) : value;
}

/**
 * The value of a stored one: opened when sealed, as is when it was stored before a keyring. A sealed
 * value without a keyring, or one that does not open, is a 500 that names no value.
 */
export function openSecretValue(
  keyring: Keyring | undefined,
  environmentId: string,
  key: string,
  stored: string,
): string {
  if (sealedKeyId(stored) === null) return stored;
  if (!keyring) {
    throw new LatchkeyError(
      'internal_error',
      'A stored secret value is sealed and this server has no keyring configured (core option keyring).',
    );
  }
  return open(keyring, stored, secretValueContext(environmentId, key));
}
