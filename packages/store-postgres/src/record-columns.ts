/**
 * A record's columns, declared once per record type: the names a query selects, how a row becomes
 * the record, and the parameters that insert it. The repositories' row mappers are written with it.
 */
import { iso, isoOrNull, json } from './rows.js';

/** A row as the drivers return it. */
export type Row = Record<string, unknown>;

/** How one field of a record is stored. */
export interface Column<V> {
  /** The column's name, when it is not the field's. */
  readonly name?: string;
  /** The field's value from the column's. */
  read(value: unknown): V;
  /** The parameter an insert sends for the value (the value itself when absent). */
  write?(value: V): unknown;
  /** A cast on the insert's placeholder, such as `::jsonb`. */
  readonly cast?: string;
}

/** A text column (or a union of string literals, such as a status). */
export const text = <S extends string = string>(name?: string): Column<S> => ({
  name,
  read: (value) => value as S,
});

/** A boolean column. */
export const flag = (): Column<boolean> => ({ read: (value) => value as boolean });

/** An integer column (a bigint arrives as a string from node-postgres). */
export const integer = (): Column<number> => ({ read: Number });

/** A timestamptz column, as the ISO-8601 string the records use. */
export const timestamp = (): Column<string> => ({ read: iso });

/** A nullable timestamptz column. */
export const timestampOrNull = (): Column<string | null> => ({ read: isoOrNull });

/** A text[] column, as an array of strings both ways. */
export const textArray = (): Column<string[]> => ({
  read: (value) => (Array.isArray(value) ? (value as string[]) : []),
  write: (value) => [...value],
  cast: '::text[]',
});

/** A jsonb column; SQL NULL is `null` both ways (never the JSON text `null`). */
export const jsonb = <T>(): Column<T> => ({
  read: (value) => (value === null || value === undefined ? null : json(value)) as T,
  write: (value) => (value === null ? null : JSON.stringify(value)),
  cast: '::jsonb',
});

/** The columns of a record type. */
export interface RecordColumns<T> {
  /**
   * The column names in the fields' order. Named, never `*`: a column added by a later migration
   * must not change the result of a prepared statement.
   */
  readonly names: string;
  /** `$1, $2, …` for an insert of every column, each with its cast. */
  readonly placeholders: string;
  /** The record a row holds. */
  read(row: Row): T;
  /** The parameters inserting `record`, in the columns' order. */
  values(record: T): unknown[];
}

/** Declares a record type's columns, one per field, in the order they are selected. */
export function recordColumns<T>(fields: { [K in keyof T]-?: Column<T[K]> }): RecordColumns<T> {
  const entries = Object.entries(fields) as [keyof T & string, Column<unknown>][];
  const column = (field: string, c: Column<unknown>) => c.name ?? field;
  return {
    names: entries.map(([field, c]) => column(field, c)).join(', '),
    placeholders: entries.map(([, c], i) => `$${i + 1}${c.cast ?? ''}`).join(', '),
    read(row) {
      const record: Partial<Record<keyof T, unknown>> = {};
      for (const [field, c] of entries) record[field] = c.read(row[column(field, c)]);
      return record as T;
    },
    values: (record) => entries.map(([field, c]) => (c.write ? c.write(record[field]) : record[field])),
  };
}
