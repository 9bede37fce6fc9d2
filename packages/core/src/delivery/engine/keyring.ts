/**
 * The delivery engine's side of the keyring check: it claims nothing unless its keyring opens every
 * key id the store's data was sealed with, and a signing secret sealed later with a key it lacks
 * (another instance's rotation) is logged once per key id, the delivery left for an engine that has it.
 */

import { describeError } from '../../errors/describe-error.js';
import { checkKeyring } from '../../keyring/check.js';
import { type Keyring, missingKeyId } from '../../keyring/keyring.js';
import type { CoreLogger } from '../../runtime/logger.js';
import type { LatchkeyStore } from '../../store/ports/store.js';

/**
 * Whether `keyring` opens every key id `store` uses: checked before the first claim (an engine only
 * opens, so it records nothing), again after `wait()` while the store does not answer and the engine
 * still runs. When it does not, logs the check's one line and resolves false.
 */
export async function engineKeyringOpens(
  store: LatchkeyStore,
  keyring: Keyring,
  logger: CoreLogger,
  loop: { running: () => boolean; wait: () => Promise<void> },
): Promise<boolean> {
  while (loop.running()) {
    try {
      const check = await checkKeyring(store, keyring, { record: false });
      if (check.status === 'ok') return true;
      logger.error(`${check.message} The delivery engine does not start.`);
      return false;
    } catch (error) {
      logger.error('cannot check the keyring against the store; trying again', {
        error: describeError(error),
      });
      await loop.wait();
    }
  }
  return false;
}

/** Logs a `MissingKeyError`'s key id, once per id. */
export function missingKeyLogger(logger: CoreLogger): (error: unknown) => void {
  const logged = new Set<string>();
  return (error) => {
    const keyId = missingKeyId(error);
    if (keyId === null || logged.has(keyId)) return;
    logged.add(keyId);
    logger.error(
      `keyring: a signing secret is sealed with key id "${keyId}", which this keyring lacks: give this engine that key; such deliveries wait until then`,
    );
  };
}
