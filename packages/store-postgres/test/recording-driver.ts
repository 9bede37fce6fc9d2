/**
 * A driver wrapper that remembers every distinct statement the store sends, with the last parameters
 * it was sent with, and which of them a transaction sent on generic plans (`GENERIC_PLANS` before
 * them).
 */
import { GENERIC_PLANS } from '../src/driver.js';
import type { SqlDriver, SqlQueryable } from '../src/index.js';

export interface Recorded {
  driver: SqlDriver;
  statements: Map<string, readonly unknown[]>;
  /** Statements sent after `GENERIC_PLANS` in their transaction. */
  generic: Set<string>;
}

export function recording(inner: SqlDriver): Recorded {
  const statements = new Map<string, readonly unknown[]>();
  const generic = new Set<string>();
  const wrap = (target: SqlQueryable): SqlQueryable => {
    // Set for the rest of the transaction, as the statement's SET LOCALs are.
    let onGenericPlans = false;
    const record = (text: string, params: readonly unknown[]) => {
      if (text === GENERIC_PLANS.text) {
        onGenericPlans = true;
        return;
      }
      statements.set(text, params);
      if (onGenericPlans) generic.add(text);
    };
    return {
      query(text, params = []) {
        record(text, params);
        return target.query(text, params);
      },
      ...(target.defer
        ? {
            defer(text: string, params: readonly unknown[] = []) {
              record(text, params);
              target.defer!(text, params);
            },
          }
        : {}),
    };
  };
  const direct = wrap(inner);
  return {
    statements,
    generic,
    driver: {
      name: inner.name,
      query: (text, params) => direct.query(text, params),
      transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
      close: () => inner.close(),
      ...(inner.streamLines
        ? {
            streamLines(text: string, params: readonly unknown[] = []) {
              statements.set(text, params);
              return inner.streamLines!(text, params);
            },
          }
        : {}),
    },
  };
}
