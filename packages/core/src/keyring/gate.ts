/**
 * How a core holds to its keyring check: once, before the first request that needs the store (or
 * `verifyKeyring()` at start), remembered when it passed or failed (the keyring cannot change in a
 * running process), tried again when the store could not answer. A failed check refuses every
 * authenticated request with 503 and is logged once; a value sealed at run time with a key this
 * keyring lacks (another instance's rotation) is a 503 logged once per key id.
 */

import { LatchkeyError } from '../errors/latchkey-error.js';
import type { CoreLogger } from '../runtime/logger.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { checkKeyring, type KeyringCheck, KeyringMismatchError } from './check.js';
import { type Keyring, missingKeyId } from './keyring.js';

/** How long a client of a refusing server is told to wait: until its operator fixes the keyring. */
const REFUSED_RETRY_SECONDS = 60;

/** The answer to every authenticated request while the keyring check fails. */
class KeyringRefusal extends LatchkeyError {
  constructor() {
    super(
      'service_unavailable',
      "This server's keyring cannot open the data in its store; its operator must start it with the right keys.",
      { retryAfterSeconds: REFUSED_RETRY_SECONDS },
    );
  }
}

export interface KeyringGate {
  /** Resolves once the check passed; throws {@link KeyringMismatchError} when it failed. */
  verify(): Promise<void>;
  /** {@link verify} for a request: a failed check is a 503 `service_unavailable`, logged once. */
  admit(): Promise<void>;
  /** The check for `core.ready()`: the start check, then a fresh look at the ids the store records. */
  report(): Promise<KeyringCheck>;
  /** Logs a 503 of this gate's making (once per cause); false for any other error. */
  noteUnavailable(error: LatchkeyError): boolean;
}

export function createKeyringGate(
  store: LatchkeyStore,
  keyring: Keyring | undefined,
  logger: CoreLogger,
): KeyringGate {
  let started: Promise<KeyringCheck> | undefined;
  const logged = new Set<string>();

  const once = (key: string, message: string) => {
    if (logged.has(key)) return;
    logged.add(key);
    logger.error(message);
  };

  async function verify(): Promise<void> {
    started ??= checkKeyring(store, keyring, { record: true }).catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    const check = await started;
    if (check.status === 'fail') throw new KeyringMismatchError(check);
  }

  return {
    verify,
    async admit() {
      try {
        await verify();
      } catch (error) {
        if (!(error instanceof KeyringMismatchError)) throw error;
        once('refused', `${error.message} Refusing every request until then.`);
        throw new KeyringRefusal();
      }
    },
    async report() {
      try {
        await verify();
        return await checkKeyring(store, keyring, { record: false });
      } catch (error) {
        if (error instanceof KeyringMismatchError) return error.check;
        return {
          status: 'fail',
          key_ids: [],
          missing: [],
          mismatched: [],
          message: 'keyring: cannot be checked: the store is unavailable',
        };
      }
    },
    noteUnavailable(error) {
      if (error instanceof KeyringRefusal) return true;
      const keyId = missingKeyId(error);
      if (keyId === null) return false;
      once(
        `key:${keyId}`,
        `keyring: a stored value is sealed with key id "${keyId}", which this keyring lacks (another instance rotated to it?): give this instance that key; answering 503 until then`,
      );
      return true;
    },
  };
}
