/**
 * The decision of `pull` over an existing file, from three states of each key: the file now
 * (local), the server now, and what the last pull or push left in the file (the record, known by
 * keyed hashes only). A key is edited locally when the file differs from the record, changed on the
 * server when the server differs from it. With no record every key that differs from the server
 * counts as changed on both sides: nothing tells a local edit from a server change, so nothing is
 * decided silently.
 */
import { type PullRecord, recordOf, wasLeft } from './pull-record.js';

type Values = Record<string, string>;

/** How a key differs locally from what was left (or, with no record, from the server). */
export type LocalChange = 'edited' | 'added' | 'removed';

/** A local edit a plain pull would lose: the key and how it changed. */
export interface LocalEdit {
  key: string;
  change: LocalChange;
}

export interface MergeResult {
  /** The file's values after the merge. */
  values: Values;
  /** Keys changed only on the server: the server's value (or its deletion) taken. */
  taken: string[];
  /** Keys changed only locally: the file's value (or its absence) kept. */
  kept: string[];
  /** Keys changed on both sides to different values: left as the file has them. */
  conflicts: string[];
  /** The record to keep: taken and settled keys as written; kept and conflicting keys still edited. */
  record: PullRecord;
}

const union = (...sets: object[]) => [...new Set(sets.flatMap((s) => Object.keys(s)))].sort();

const same = (a: string | undefined, b: string | undefined) => a === b;

/**
 * The local edits a plain pull would destroy: keys that differ from the record (with no record,
 * from the server) and whose value in the file is not the server's. An edit that equals the
 * server's value loses nothing and is not listed.
 */
export function localEdits(local: Values, server: Values, record: PullRecord | undefined): LocalEdit[] {
  const edits: LocalEdit[] = [];
  for (const key of union(local, server, record?.values ?? {})) {
    const mine = local[key];
    if (wasLeft(record, key, mine) || same(mine, server[key])) continue;
    const before = record ? Object.hasOwn(record.values, key) : key in server;
    edits.push({ key, change: mine === undefined ? 'removed' : before ? 'edited' : 'added' });
  }
  return edits;
}

/**
 * The three-way merge: keys changed only on the server are taken, keys changed only locally kept,
 * keys changed on both sides to the same value settled, and to different values left as the file
 * has them and listed as conflicts.
 */
export function mergePull(local: Values, server: Values, record: PullRecord | undefined): MergeResult {
  const values: Values = {};
  const result: Omit<MergeResult, 'values' | 'record'> = { taken: [], kept: [], conflicts: [] };
  // The new record starts from what is written; kept and conflicting keys get their old entry back.
  const unsettled: string[] = [];
  for (const key of union(local, server, record?.values ?? {})) {
    const mine = local[key];
    const theirs = server[key];
    const localChanged = !wasLeft(record, key, mine);
    const serverChanged = !wasLeft(record, key, theirs);
    let chosen = mine;
    if (same(mine, theirs)) {
      // Both the same, changed or not: settled.
    } else if (!localChanged) {
      chosen = theirs;
      result.taken.push(key);
    } else if (!serverChanged) {
      result.kept.push(key);
      unsettled.push(key);
    } else {
      result.conflicts.push(key);
      unsettled.push(key);
    }
    if (chosen !== undefined) values[key] = chosen;
  }
  // Under the old salt, so the old entries of unsettled keys still match what they hashed.
  const next = recordOf(
    Object.fromEntries(Object.entries(values).filter(([key]) => !unsettled.includes(key))),
    record?.salt,
  );
  for (const key of unsettled) {
    if (!record) next.values[key] = null;
    else if (Object.hasOwn(record.values, key)) next.values[key] = record.values[key]!;
    else delete next.values[key];
  }
  return { values, ...result, record: next };
}
