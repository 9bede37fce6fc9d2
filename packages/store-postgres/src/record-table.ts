/**
 * The statements every simple repository runs on its table (insert, find, list, update returning
 * the record), written once over a record's {@link RecordColumns}. Each takes the rest of its SQL
 * (the WHERE clause, an ORDER BY) as text with `$n` parameters, never values spliced in.
 */
import type { SqlQueryable } from './driver.js';
import type { RecordColumns } from './record-columns.js';
import { created } from './rows.js';

/** One table's records, read and written through one queryable (the store, or a transaction). */
export interface RecordTable<T> {
  /** Inserts the record. */
  insert(record: T): Promise<void>;
  /** Inserts the record unless its `unique` columns (a conflict target) are taken; writes nothing then. */
  insertNew(record: T, unique: string): Promise<'created' | 'exists'>;
  /** The first record `WHERE where` selects, or null. */
  find(where: string, params: readonly unknown[]): Promise<T | null>;
  /** Every record `WHERE where` selects (`where` ends with its ORDER BY). */
  list(where: string, params: readonly unknown[]): Promise<T[]>;
  /** Applies `SET set` to the record `WHERE where` selects; the record as changed, or null if none matched. */
  update(set: string, where: string, params: readonly unknown[]): Promise<T | null>;
  /**
   * Sets `column` to `to` on the record `WHERE where` selects only while the column still holds
   * `from` (`from` and `to` are the two parameters after `params`): the re-encrypt routine's
   * compare-and-set, so a write in between wins. Whether it wrote.
   */
  replace(
    column: string,
    where: string,
    params: readonly unknown[],
    from: string,
    to: string,
  ): Promise<boolean>;
}

/** The records of `table` (a qualified name from `tablesOf`), stored as `columns` says. */
export function recordTable<T>(db: SqlQueryable, table: string, columns: RecordColumns<T>): RecordTable<T> {
  const first = (rows: Record<string, unknown>[]) => (rows[0] ? columns.read(rows[0]) : null);
  const insert = `INSERT INTO ${table} (${columns.names}) VALUES (${columns.placeholders})`;
  const select = `SELECT ${columns.names} FROM ${table} WHERE `;
  return {
    async insert(record) {
      await db.query(insert, columns.values(record));
    },
    async insertNew(record, unique) {
      const { rowCount } = await db.query(
        `${insert} ON CONFLICT (${unique}) DO NOTHING`,
        columns.values(record),
      );
      return created(rowCount);
    },
    async find(where, params) {
      return first((await db.query(select + where, params)).rows);
    },
    async list(where, params) {
      return (await db.query(select + where, params)).rows.map(columns.read);
    },
    async update(set, where, params) {
      const text = `UPDATE ${table} SET ${set} WHERE ${where} RETURNING ${columns.names}`;
      return first((await db.query(text, params)).rows);
    },
    async replace(column, where, params, from, to) {
      const n = params.length;
      const text = `UPDATE ${table} SET ${column} = $${n + 2} WHERE ${where} AND ${column} = $${n + 1}`;
      const { rowCount } = await db.query(text, [...params, from, to]);
      return rowCount === 1;
    },
  };
}
