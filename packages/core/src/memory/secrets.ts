import type { KeyHead } from '../model/push-plan.js';
import { pushEvent } from '../secrets/push-event.js';
import { planPush } from '../secrets/push-plan.js';
import { DEFAULT_SECRET_VERSIONS_KEPT, versionRows } from '../secrets/versions.js';
import type {
  ApplyPushInput,
  ApplyPushResult,
  SecretRepository,
  StoredValue,
  StoredValueRef,
} from '../store/ports/secrets.js';
import { journaledAssign, journaledEnsure, journaledSet } from './journaled.js';
import { consumeNonce } from './nonces.js';
import { byCodeUnits } from './order.js';
import { appendVersions, memorySecretVersions } from './secret-versions.js';
import { appendEvent, type Journal, type MemoryState } from './state.js';

/** Of `keys` (in key order), those after `page.afterKey`, at most `page.limit`; all without a page. */
function pageOf<T>(keys: [string, T][], page: { afterKey?: string | undefined; limit: number } | undefined) {
  const after = page?.afterKey;
  const shown = keys.filter(([key]) => after === undefined || byCodeUnits(key, after) > 0);
  return shown.slice(0, page?.limit ?? shown.length);
}

/** Secret versions in memory. `applyPush` runs without awaiting in between, so it is one atomic step. */
export function memorySecrets(state: MemoryState, journal: Journal): SecretRepository {
  /** The environment's keys whose head is (or is not) a tombstone, in key order. */
  const keysOf = (environmentId: string, deleted: boolean) =>
    [...(state.secrets.get(environmentId) ?? [])]
      .filter(([, s]) => s.head.deleted === deleted)
      .sort(([a], [b]) => byCodeUnits(a, b));
  return {
    ...memorySecretVersions(state, journal),
    async applyPush(input) {
      return applyPush(state, journal, input);
    },
    async listLive(environmentId, page) {
      return pageOf(keysOf(environmentId, false), page).map(([key, s]) => ({
        key,
        version: s.head.version,
        value: s.value,
        updated_at: s.updated_at,
      }));
    },
    async listTombstones(environmentId, page) {
      return pageOf(keysOf(environmentId, true), page).map(([key, s]) => ({
        key,
        version: s.head.version,
        updated_at: s.updated_at,
      }));
    },
    async scanValues(after, limit) {
      const rows: StoredValue[] = [];
      for (const [environmentId, table] of state.secrets) {
        for (const [key, stored] of table) {
          if (stored.head.deleted || stored.value === null) continue;
          if (after && compareRefs({ environmentId, key }, after) <= 0) continue;
          rows.push({ environmentId, key, value: stored.value });
        }
      }
      return rows.sort(compareRefs).slice(0, limit);
    },
    async replaceValues(changes) {
      let replaced = 0;
      for (const change of changes) {
        const stored = state.secrets.get(change.environmentId)?.get(change.key);
        if (!stored || stored.value !== change.from) continue;
        journaledAssign(stored, { value: change.to }, journal);
        replaced++;
      }
      return replaced;
    },
  };
}

/** The compare-and-set of a push: every planned version and the event, or, on a conflict, nothing. */
function applyPush(state: MemoryState, journal: Journal, input: ApplyPushInput): ApplyPushResult {
  const { nonce } = input;
  if (nonce && !consumeNonce(state, journal, nonce.scope, nonce.value, nonce.expiresAt, nonce.now)) {
    return { ok: false, replayed: true };
  }
  const table = journaledEnsure(state.secrets, input.environmentId, () => new Map(), journal);
  const heads = new Map<string, KeyHead>();
  for (const change of input.changes) {
    const stored = table.get(change.key);
    if (stored) heads.set(change.key, stored.head);
  }
  const plan = planPush(heads, input.changes, input.force);
  if (!plan.ok) return { ok: false, conflicts: plan.conflicts };
  const draft = pushEvent(plan, input.eventTemplate);
  for (const write of plan.writes) {
    const head = { version: write.version, deleted: write.value === null };
    journaledSet(table, write.key, { head, value: write.value, updated_at: input.now }, journal);
  }
  const rows = versionRows(plan.writes, draft);
  appendVersions(
    state,
    journal,
    input.environmentId,
    rows,
    input.versionsKept ?? DEFAULT_SECRET_VERSIONS_KEPT,
  );
  const event = appendEvent(state, journal, input.organizationId, draft);
  return {
    ok: true,
    versions: plan.writes.map((w) => ({ key: w.key, version: w.version })),
    event: { ...event },
  };
}

/** Environment id, then key, in code-unit order (byte order for the ASCII ids and keys we store). */
function compareRefs(a: StoredValueRef, b: StoredValueRef): number {
  if (a.environmentId !== b.environmentId) return a.environmentId < b.environmentId ? -1 : 1;
  return byCodeUnits(a.key, b.key);
}
