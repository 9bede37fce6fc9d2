/** The versions of each key in memory: appended with a push, pruned to the values kept, read back in pages. */

import type { StoredSecretVersion } from '../model/secret-version.js';
import { prunedThrough } from '../secrets/versions.js';
import type { SecretRepository, StoredVersionRef, StoredVersionValue } from '../store/ports/secrets.js';
import { journaledAssign, journaledEnsure } from './journaled.js';
import { byCodeUnits } from './order.js';
import type { Journal, MemoryState } from './state.js';

/** Appends a push's version rows and drops the values beyond the `kept` newest of each key written. */
export function appendVersions(
  state: MemoryState,
  journal: Journal,
  environmentId: string,
  rows: readonly StoredSecretVersion[],
  kept: number,
): void {
  const table = journaledEnsure(state.secretVersions, environmentId, () => new Map(), journal);
  for (const row of rows) {
    const versions = journaledEnsure(table, row.key, (): StoredSecretVersion[] => [], journal);
    versions.push({ ...row });
    journal?.push(() => versions.pop());
    const through = prunedThrough(row.version, kept);
    for (const old of versions) {
      if (old.version <= through && old.value !== null) journaledAssign(old, { value: null }, journal);
    }
  }
}

const copy = (row: StoredSecretVersion): StoredSecretVersion => ({
  ...row,
  actor: row.actor && { ...row.actor },
});

/** The version repository methods of the memory store. */
export function memorySecretVersions(
  state: MemoryState,
  journal: Journal,
): Pick<SecretRepository, 'listVersions' | 'listAllVersions' | 'scanVersionValues' | 'replaceVersionValues'> {
  const find = (ref: StoredVersionRef) =>
    state.secretVersions
      .get(ref.environmentId)
      ?.get(ref.key)
      ?.find((v) => v.version === ref.version);
  return {
    async listVersions(environmentId, key, page) {
      const versions = state.secretVersions.get(environmentId)?.get(key) ?? [];
      return versions
        .filter((v) => page.beforeVersion === undefined || v.version < page.beforeVersion)
        .reverse()
        .slice(0, page.limit)
        .map(copy);
    },
    async listAllVersions(environmentId, page) {
      const table = state.secretVersions.get(environmentId) ?? new Map<string, StoredSecretVersion[]>();
      const after = page?.after;
      const all = [...table.keys()]
        .sort(byCodeUnits)
        .filter((key) => !after || byCodeUnits(key, after.key) >= 0)
        .flatMap((key) => table.get(key)!)
        .filter((v) => !after || v.key !== after.key || v.version > after.version);
      return all.slice(0, page?.limit ?? all.length).map(copy);
    },
    async scanVersionValues(after, limit) {
      const rows: StoredVersionValue[] = [];
      for (const [environmentId, table] of state.secretVersions) {
        for (const [key, versions] of table) {
          for (const v of versions) {
            if (v.value === null) continue;
            const row = { environmentId, key, version: v.version, value: v.value };
            if (after && compareVersionRefs(row, after) <= 0) continue;
            rows.push(row);
          }
        }
      }
      return rows.sort(compareVersionRefs).slice(0, limit);
    },
    async replaceVersionValues(changes) {
      let replaced = 0;
      for (const change of changes) {
        const stored = find(change);
        if (!stored || stored.value !== change.from) continue;
        journaledAssign(stored, { value: change.to }, journal);
        replaced++;
      }
      return replaced;
    },
  };
}

/** Environment id, key, then version. */
function compareVersionRefs(a: StoredVersionRef, b: StoredVersionRef): number {
  if (a.environmentId !== b.environmentId) return a.environmentId < b.environmentId ? -1 : 1;
  if (a.key !== b.key) return byCodeUnits(a.key, b.key);
  return a.version - b.version;
}
