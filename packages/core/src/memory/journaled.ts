/**
 * Writes to the memory store's maps and records, each pushing its undo onto the transaction's
 * journal (outside a transaction the journal is `null` and a write needs no undo). The undo puts
 * back exactly what was there: the previous value, or no entry at all.
 */
import type { Journal } from './state.js';

/** Sets `key` to `value`. */
export function journaledSet<K, V>(map: Map<K, V>, key: K, value: V, journal: Journal): void {
  const had = map.has(key);
  const before = map.get(key) as V;
  map.set(key, value);
  journal?.push(() => (had ? map.set(key, before) : map.delete(key)));
}

/** Deletes `key`, if present. */
export function journaledDelete<K, V>(map: Map<K, V>, key: K, journal: Journal): void {
  if (!map.has(key)) return;
  const before = map.get(key) as V;
  map.delete(key);
  journal?.push(() => map.set(key, before));
}

/** Deletes every entry `drop` selects. */
export function journaledDeleteWhere<K, V>(
  map: Map<K, V>,
  drop: (value: V, key: K) => boolean,
  journal: Journal,
): void {
  for (const [key, value] of [...map]) if (drop(value, key)) journaledDelete(map, key, journal);
}

/** The value under `key`, first set to `create()` when there is none. */
export function journaledEnsure<K, V>(map: Map<K, V>, key: K, create: () => V, journal: Journal): V {
  if (!map.has(key)) journaledSet(map, key, create(), journal);
  return map.get(key) as V;
}

/** Assigns `changes` to the fields of `record` (a stored record, changed in place). */
export function journaledAssign<T extends object>(record: T, changes: Partial<T>, journal: Journal): void {
  const before: Partial<T> = {};
  for (const field of Object.keys(changes) as (keyof T)[]) before[field] = record[field];
  Object.assign(record, changes);
  journal?.push(() => Object.assign(record, before));
}
