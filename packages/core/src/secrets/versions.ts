/**
 * The history of a key: every push writes one version row per key (a tombstone for a delete), and
 * each key keeps the values of its last `secretVersionsKept` versions; older rows keep their
 * metadata only. Written once here so every store prunes the same versions.
 */
import type { ActivityDraft } from '../model/model.js';
import type { PlannedWrite } from '../model/push-plan.js';
import type { StoredSecretVersion } from '../model/secret-version.js';

/** Values kept per key when the core option `secretVersionsKept` is not given (as Vault's `max_versions`). */
export const DEFAULT_SECRET_VERSIONS_KEPT = 10;

/** The version rows a push writes: one per planned write, described by the push's event. */
export function versionRows(writes: readonly PlannedWrite[], event: ActivityDraft): StoredSecretVersion[] {
  return writes.map((write) => ({
    key: write.key,
    version: write.version,
    deleted: write.value === null,
    value: write.value,
    occurred_at: event.occurred_at,
    actor: event.actor,
    device_id: event.device_id ?? null,
    event_id: event.id,
  }));
}

/**
 * The newest version of a key whose value is dropped once `version` is written: versions up to it
 * keep their metadata only (0 when every value is still kept).
 */
export function prunedThrough(version: number, kept: number): number {
  return Math.max(0, version - kept);
}

/** Checks the core option `secretVersionsKept`: an integer from 1 to 1000. */
export function toVersionsKept(kept: number | undefined): number {
  if (kept === undefined) return DEFAULT_SECRET_VERSIONS_KEPT;
  if (!(Number.isInteger(kept) && kept >= 1 && kept <= 1000)) {
    throw new RangeError('secretVersionsKept must be an integer from 1 to 1000');
  }
  return kept;
}
