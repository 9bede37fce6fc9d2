/**
 * The one seam between the repositories and a PostgreSQL engine: run a query, or run a function in
 * one transaction on one connection. Two drivers implement it: `pg` (node-postgres) and PGlite.
 */

/** The rows a query returned, and how many rows it touched. */
export interface SqlResult<Row = Record<string, unknown>> {
  rows: Row[];
  rowCount: number;
}

/** Something queries can be sent to: the driver itself, or an open transaction. */
export interface SqlQueryable {
  /** One statement with `$1…$n` parameters. Values are passed as parameters, never spliced in. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
}

/** A PostgreSQL engine, as the store uses it. */
export interface SqlDriver extends SqlQueryable {
  /** Names the engine in messages: `pg` or `pglite`. */
  readonly name: string;
  /**
   * Runs `fn` in one READ COMMITTED transaction on one connection: committed when `fn` resolves,
   * rolled back when it throws (the error is rethrown). A deadlock or serialization failure reported
   * by the database rolls back and runs `fn` again, a few times, before giving up.
   */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Waits for running queries, then releases every connection (or closes the embedded database). */
  close(): Promise<void>;
}
