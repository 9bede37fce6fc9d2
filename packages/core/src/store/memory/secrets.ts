import { type KeyHead, planPush } from '../../conflicts.js';
import type {
  ApplyPushInput,
  ApplyPushResult,
  SecretRepository,
  StoredValue,
  StoredValueRef,
} from '../ports/secrets.js';
import { appendEvent, type Journal, type MemoryState, type StoredSecret } from './state.js';

/** Secret versions in memory. `applyPush` runs without awaiting in between, so it is one atomic step. */
export function memorySecrets(state: MemoryState, journal: Journal): SecretRepository {
  return {
    async applyPush(input: ApplyPushInput): Promise<ApplyPushResult> {
      let table = state.secrets.get(input.environmentId);
      if (!table) {
        table = new Map();
        state.secrets.set(input.environmentId, table);
      }
      const heads = new Map<string, KeyHead>();
      for (const change of input.changes) {
        const stored = table.get(change.key);
        if (stored) heads.set(change.key, stored.head);
      }
      const plan = planPush(heads, input.changes, input.force);
      if (!plan.ok) return { ok: false, conflicts: plan.conflicts };
      const draft = input.event(plan);
      if (journal) {
        const target = table;
        const before = new Map<string, StoredSecret | undefined>();
        for (const write of plan.writes) before.set(write.key, target.get(write.key));
        journal.push(() => {
          for (const [key, stored] of before) {
            if (stored) target.set(key, stored);
            else target.delete(key);
          }
        });
      }
      for (const write of plan.writes) {
        table.set(write.key, {
          head: { version: write.version, deleted: write.value === null },
          value: write.value,
          updated_at: input.now,
        });
      }
      const event = appendEvent(state, journal, input.organizationId, draft);
      return {
        ok: true,
        versions: plan.writes.map((w) => ({ key: w.key, version: w.version })),
        event: { ...event },
      };
    },
    async listLive(environmentId) {
      const table = state.secrets.get(environmentId);
      if (!table) return [];
      return [...table.entries()]
        .filter(([, s]) => !s.head.deleted)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, s]) => ({ key, version: s.head.version, value: s.value, updated_at: s.updated_at }));
    },
    async listTombstones(environmentId) {
      const table = state.secrets.get(environmentId);
      if (!table) return [];
      return [...table.entries()]
        .filter(([, s]) => s.head.deleted)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, s]) => ({ key, version: s.head.version, updated_at: s.updated_at }));
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
        stored.value = change.to;
        journal?.push(() => {
          stored.value = change.from;
        });
        replaced++;
      }
      return replaced;
    },
  };
}

/** Environment id, then key, in code-unit order (byte order for the ASCII ids and keys we store). */
function compareRefs(a: StoredValueRef, b: StoredValueRef): number {
  if (a.environmentId !== b.environmentId) return a.environmentId < b.environmentId ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
