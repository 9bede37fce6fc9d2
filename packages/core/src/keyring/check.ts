/**
 * A keyring bound to its data. The store records every key id its data was sealed with, each with a
 * check value sealed by that key; at start the core checks that its keyring opens every one. A
 * missing key (keyring.txt deleted, `LATCHKEY_KEYRING` unset) or another key under a recorded id
 * (two instances each with their own `k1`) is refused with one line naming the ids, never the keys,
 * before anything is sealed that no instance could read back.
 */

import type { LatchkeyStore } from '../store/ports/store.js';
import { type Keyring, open, seal, sealedKeyId } from './keyring.js';

const CHECK_TEXT = 'latchkey keyring check';
const checkContext = (keyId: string) => `keyring_check:${keyId}`;

/** What the keyring check found. */
export interface KeyringCheck {
  /** `ok` when the keyring opens every key id the store uses. */
  status: 'ok' | 'fail';
  /** Every key id the store's data was sealed with (after this check recorded the current one). */
  key_ids: string[];
  /** Recorded key ids this keyring does not have. */
  missing: string[];
  /** Recorded key ids whose check value does not open with this keyring's key of that id. */
  mismatched: string[];
  /** One line for the operator when the check fails: the ids, what to do; never key material. */
  message?: string;
}

/** The error the core refuses to start with: {@link KeyringCheck.message}, and the check. */
export class KeyringMismatchError extends Error {
  constructor(readonly check: KeyringCheck) {
    super(check.message);
    this.name = 'KeyringMismatchError';
  }
}

/** A check value: the fixed text sealed with the key `keyId`, bound to that id. */
function checkValue(keyring: Keyring, keyId: string): string {
  return seal({ current: keyId, keys: keyring.keys }, CHECK_TEXT, checkContext(keyId));
}

/** Whether `check` was made by this keyring's key of that id. */
function opens(keyring: Keyring, keyId: string, check: string): boolean {
  if (sealedKeyId(check) !== keyId) return false;
  try {
    return open(keyring, check, checkContext(keyId)) === CHECK_TEXT;
  } catch {
    return false;
  }
}

const list = (ids: string[]) => ids.map((id) => `"${id}"`).join(', ');

function failure(missing: string[], mismatched: string[]): string {
  const parts: string[] = [];
  if (missing.length > 0) {
    parts.push(
      `the store holds values sealed with key ${missing.length === 1 ? 'id' : 'ids'} ${list(missing)}, which this keyring lacks`,
    );
  }
  if (mismatched.length > 0) {
    parts.push(
      `this keyring's ${mismatched.length === 1 ? 'key' : 'keys'} ${list(mismatched)} ${mismatched.length === 1 ? 'is not the one' : 'are not the ones'} the store's data was sealed with`,
    );
  }
  return `keyring: ${parts.join('; ')}: start with the keyring that sealed this data (LATCHKEY_KEYRING or the core option keyring), or nothing sealed can be read.`;
}

/**
 * Checks `keyring` (or its absence) against the key ids `store` records. When every recorded id
 * opens, and `record` is set (instances that seal; not a delivery worker, which only opens),
 * records the current key id with its check value, race-safe: when another instance recorded that
 * id first with another key, the check fails as mismatched; ids recorded without a check (data
 * sealed before stores kept them) get one from this keyring then. Store failures are thrown as
 * they are.
 */
export async function checkKeyring(
  store: LatchkeyStore,
  keyring: Keyring | undefined,
  options: { record: boolean },
): Promise<KeyringCheck> {
  const recorded = await store.keyIds.list();
  const missing: string[] = [];
  const mismatched: string[] = [];
  const keyIds = recorded.map((entry) => entry.key_id);
  for (const { key_id, check } of recorded) {
    if (!keyring?.keys.has(key_id)) missing.push(key_id);
    else if (check !== null && !opens(keyring, key_id, check)) mismatched.push(key_id);
  }
  if (missing.length === 0 && mismatched.length === 0 && keyring && options.record) {
    // An id found in data sealed before checks were kept is taken on trust, once, and bound from now.
    const toRecord = new Set(recorded.filter((entry) => entry.check === null).map((entry) => entry.key_id));
    toRecord.add(keyring.current);
    for (const keyId of toRecord) {
      const kept = await store.keyIds.record(keyId, checkValue(keyring, keyId));
      if (!opens(keyring, keyId, kept)) mismatched.push(keyId);
      if (!keyIds.includes(keyId)) keyIds.push(keyId);
    }
  }
  keyIds.sort();
  if (missing.length === 0 && mismatched.length === 0) {
    return { status: 'ok', key_ids: keyIds, missing, mismatched };
  }
  return { status: 'fail', key_ids: keyIds, missing, mismatched, message: failure(missing, mismatched) };
}
