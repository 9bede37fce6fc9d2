/**
 * A `SqlDriver` that counts what the store sends through it, for `bench:delivery`'s statements and
 * transactions per delivery. It wraps the driver rather than the store, so the figures hold whatever
 * the store's repositories do.
 *
 * - `statements`: each `query` or `defer`, on the driver or on the transaction handle given to `fn`
 *   (a failed one included: it was sent), and each `streamLines` (one SELECT). Not counted: what the driver
 *   sends on its own around a transaction (BEGIN, COMMIT or ROLLBACK, and the pg driver's look at the
 *   transaction id with BEGIN), and its LISTEN; the notifications LISTEN brings are not
 *   statements and are not counted either.
 * - `transactions`: each attempt at one, that is each time the driver calls `fn`. A transaction the
 *   driver runs again after a deadlock or serialization failure is seen (it calls `fn` again) and
 *   counts once per attempt; `retries` says how many attempts were such repeats. An attempt that
 *   failed before `fn` was called (at BEGIN, or waiting for a connection) is not seen.
 */
import type { SqlDriver, SqlQueryable } from '@latchkey/store-postgres';

/** What went through a {@link countingDriver} since it was made or last reset. */
export interface SqlCounters {
  statements: number;
  transactions: number;
  retries: number;
}

/** A driver that counts, with its counters. */
export interface CountingDriver extends SqlDriver {
  readonly counters: Readonly<SqlCounters>;
  /** Sets every counter back to zero. */
  reset(): void;
}

export const noCounters = (): SqlCounters => ({ statements: 0, transactions: 0, retries: 0 });

/** `driver`, counting its statements and transactions. */
export function countingDriver(driver: SqlDriver): CountingDriver {
  const counters = noCounters();
  const counted = (queryable: SqlQueryable): SqlQueryable => ({
    query(text, params) {
      counters.statements++;
      return queryable.query(text, params);
    },
    ...(queryable.defer
      ? {
          defer(text: string, params?: readonly unknown[]) {
            counters.statements++;
            queryable.defer!(text, params);
          },
        }
      : {}),
  });
  const direct = counted(driver);
  const { streamLines, listen } = driver;
  return {
    name: driver.name,
    get counters() {
      return counters;
    },
    reset() {
      Object.assign(counters, noCounters());
    },
    query: (text, params) => direct.query(text, params),
    transaction(fn) {
      let attempts = 0;
      return driver.transaction((tx) => {
        counters.transactions++;
        if (attempts++ > 0) counters.retries++;
        return fn(counted(tx));
      });
    },
    ...(streamLines
      ? {
          streamLines(text: string, params?: readonly unknown[]) {
            counters.statements++;
            return streamLines.call(driver, text, params);
          },
        }
      : {}),
    ...(listen ? { listen: listen.bind(driver) } : {}),
    close: () => driver.close(),
  };
}

/** The sum of several processes' counters. */
export function sumCounters(all: readonly SqlCounters[]): SqlCounters {
  const sum = noCounters();
  for (const c of all) {
    sum.statements += c.statements;
    sum.transactions += c.transactions;
    sum.retries += c.retries;
  }
  return sum;
}
