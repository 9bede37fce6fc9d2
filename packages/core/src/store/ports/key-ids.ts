/**
 * Port: the keyring key ids a store's data was sealed with, each with a check value sealed by that
 * key. The core reads them at start to refuse a keyring that cannot open the data (a key missing,
 * or another key reusing an id), rather than seal new values no instance can read back.
 */

/** A key id the store's data was sealed with. */
export interface KeyIdRecord {
  key_id: string;
  /**
   * A fixed text sealed with that key (see `keyring-check.ts`): it opens only with the key that made
   * it. Null for an id found in data sealed before stores kept checks (filled at the next start
   * whose keyring has the id).
   */
  check: string | null;
}

export interface KeyIdRepository {
  /** Every recorded key id, in code-unit order. */
  list(): Promise<KeyIdRecord[]>;
  /**
   * Records `keyId` with `check` unless the id already has a check: one atomic set-if-absent (an id
   * recorded without one gets this one). Returns the check the store keeps afterwards, which is
   * another instance's when it recorded the id first: the caller must see that its key opens it.
   */
  record(keyId: string, check: string): Promise<string>;
  /** Forgets these ids (no value is sealed with them any more: the re-encrypt routine moved them all). */
  forget(keyIds: readonly string[]): Promise<void>;
}
