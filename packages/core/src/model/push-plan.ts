/**
 * The push plan's shapes: the changes a push asks for, each key's head, and the writes or conflicts
 * the plan decides (`planPush` in `secrets/push-plan.ts`). The store's port names them, so they sit
 * beneath it.
 */

/** One requested change, already validated. */
export interface PushChange {
  key: string;
  /** The new value, or `null` to delete (write a tombstone). */
  value: string | null;
  /** The version the client believes is current; `0` means "no live value"; absent means unchecked. */
  if_version?: number | undefined;
}

/** The current head of one key as the store sees it. */
export interface KeyHead {
  version: number;
  /** True when the head is a tombstone. */
  deleted: boolean;
}

/** Entry of `conflicts[]` in a 409: the key, the version the server holds and the one the client expected. */
export interface ConflictRecord {
  key: string;
  server_version: number;
  client_if_version: number;
}

/** A write the store must perform. */
export interface PlannedWrite {
  key: string;
  version: number;
  value: string | null;
}

/** What a forced push overwrote, for the `push_force_overwrite` event. */
export interface OverwriteRecord {
  key: string;
  server_version: number;
  client_if_version: number | null;
}

export type PushPlan =
  | { ok: true; writes: PlannedWrite[]; overwritten: OverwriteRecord[] }
  | { ok: false; conflicts: ConflictRecord[] };
