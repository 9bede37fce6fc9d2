/**
 * How a repository reaches the database: queries, and `atomic(fn)` for a method that needs several
 * statements to be one step. Outside a unit of work `atomic` opens a transaction; inside one it runs
 * in the transaction already open.
 */
import type { SqlDriver, SqlQueryable } from './driver.js';

export interface Runner extends SqlQueryable {
  atomic<T>(fn: (q: SqlQueryable) => Promise<T>): Promise<T>;
}

/** A runner outside any transaction: each query on its own, `atomic` in a new transaction. */
export function driverRunner(driver: SqlDriver): Runner {
  return {
    query: (text, params) => driver.query(text, params),
    atomic: (fn) => driver.transaction(fn),
  };
}

/** A runner inside an open transaction. */
export function transactionRunner(tx: SqlQueryable): Runner {
  return {
    query: (text, params) => tx.query(text, params),
    atomic: (fn) => fn(tx),
  };
}
