/**
 * Optimistic-concurrency planning, pure and storage-free. Every store calls {@link planPush} inside
 * its own transaction, with the current versions it read under lock, so that the rule is written once.
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

/** True when `ifVersion` matches the head: `0` matches a missing key or a tombstone. */
export function versionMatches(head: KeyHead | undefined, ifVersion: number): boolean {
  if (ifVersion === 0) return head === undefined || head.deleted;
  return head !== undefined && head.version === ifVersion;
}

/**
 * Decides a push against the current heads. Without `force`, any mismatching `if_version` makes the
 * whole push a conflict listing every conflicting key, and nothing is to be written. With `force`,
 * `if_version` is ignored and each key's overwritten head is reported.
 */
export function planPush(
  heads: ReadonlyMap<string, KeyHead>,
  changes: readonly PushChange[],
  force: boolean,
): PushPlan {
  if (!force) {
    const conflicts: ConflictRecord[] = [];
    for (const change of changes) {
      if (change.if_version === undefined) continue;
      const head = heads.get(change.key);
      if (!versionMatches(head, change.if_version)) {
        conflicts.push({
          key: change.key,
          server_version: head?.version ?? 0,
          client_if_version: change.if_version,
        });
      }
    }
    if (conflicts.length > 0) return { ok: false, conflicts };
  }
  const writes: PlannedWrite[] = [];
  const overwritten: OverwriteRecord[] = [];
  for (const change of changes) {
    const current = heads.get(change.key)?.version ?? 0;
    writes.push({ key: change.key, version: current + 1, value: change.value });
    if (force)
      overwritten.push({
        key: change.key,
        server_version: current,
        client_if_version: change.if_version ?? null,
      });
  }
  return { ok: true, writes, overwritten };
}
