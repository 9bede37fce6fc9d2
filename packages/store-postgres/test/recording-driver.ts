/** A driver wrapper that remembers every distinct statement the store sends, with the last parameters it was sent with. */
import type { SqlDriver, SqlQueryable } from '../src/index.js';

export interface Recorded {
  driver: SqlDriver;
  statements: Map<string, readonly unknown[]>;
}

export function recording(inner: SqlDriver): Recorded {
  const statements = new Map<string, readonly unknown[]>();
  const wrap = (target: SqlQueryable): SqlQueryable => ({
    query(text, params = []) {
      statements.set(text, params);
      return target.query(text, params);
    },
    ...(target.defer
      ? {
          defer(text: string, params: readonly unknown[] = []) {
            statements.set(text, params);
            target.defer!(text, params);
          },
        }
      : {}),
  });
  const direct = wrap(inner);
  return {
    statements,
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
