/**
 * Records unique by a name within a parent: projects by slug in an organization, environments by
 * slug in a project, members by user in an organization. Each is kept under the key `parent/name`,
 * so a create is one atomic check-and-insert and a get one map read.
 */
import { insertUnique, type Journal, listSorted } from './state.js';

/** The part of a repository that such records share. */
export interface NamedRecords<T> {
  /** Stores a copy of `record` unless its name is taken in its parent; writes nothing then. */
  create(record: T): Promise<'created' | 'exists'>;
  /** A copy of the parent's record of that name, or null. */
  get(parent: string, name: string): Promise<T | null>;
  /** Copies of the parent's records, in name order (code units, as SQL's `COLLATE "C"`). */
  list(parent: string): Promise<T[]>;
}

/** How a record names its parent and itself. */
export interface NamedIn<T> {
  parent(record: T): string;
  name(record: T): string;
}

/** The records of `map`, named as `key` says, stored and handed out as copies made by `copy`. */
export function namedRecords<T>(
  map: Map<string, T>,
  journal: Journal,
  key: NamedIn<T>,
  copy: (record: T) => T,
): NamedRecords<T> {
  return {
    async create(record) {
      return insertUnique(map, `${key.parent(record)}/${key.name(record)}`, copy(record), journal);
    },
    async get(parent, name) {
      const record = map.get(`${parent}/${name}`);
      return record ? copy(record) : null;
    },
    async list(parent) {
      return listSorted(map, (record) => key.parent(record) === parent, key.name, copy);
    },
  };
}
