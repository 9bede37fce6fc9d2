/**
 * Records unique by a name within a parent: projects by slug in an organization, environments by
 * slug in a project, members by user in an organization. A UNIQUE constraint on (parent, name)
 * makes `create` one atomic check-and-insert.
 */
import type { RecordTable } from './record-table.js';

/** The part of a repository that such records share. */
export interface NamedRecords<T> {
  /** Inserts the record unless its name is taken in its parent; writes nothing then. */
  create(record: T): Promise<'created' | 'exists'>;
  /** The parent's record of that name, or null. */
  get(parent: string, name: string): Promise<T | null>;
  /** The parent's records, in name order (`COLLATE "C"`: code units, as the memory store sorts). */
  list(parent: string): Promise<T[]>;
}

/** The records of `records`, named by the columns `parent` and `name`. */
export function namedRecords<T>(records: RecordTable<T>, parent: string, name: string): NamedRecords<T> {
  return {
    create: (record) => records.insertNew(record, `${parent}, ${name}`),
    get: (parentId, value) => records.find(`${parent} = $1 AND ${name} = $2`, [parentId, value]),
    list: (parentId) => records.list(`${parent} = $1 ORDER BY ${name} COLLATE "C"`, [parentId]),
  };
}
