/**
 * Queries on node-postgres, on the pool or on a checked-out client. Statements with parameters are
 * prepared once per connection under a name derived from their text, so PostgreSQL parses and
 * plans each of them once rather than on every call; behind a transaction-mode pooler (whose server
 * connections change under the client, and which may not track names) they stay unnamed.
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { SqlQueryable, SqlResult } from '../../driver.js';
import { translated } from '../translated.js';

/** Texts seen so far and their statement names, bounded so a stream of distinct texts cannot grow it. */
const names = new Map<string, string>();

/** The prepared statement name of `text` (the same on every connection). */
export function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `lk_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

/** `client` as the store's queryable: named prepared statements (unless `prepared` is false), failures translated. */
export function pgQueryable(client: Pool | PoolClient, prepared = true): SqlQueryable {
  return {
    query<Row>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
      return translated(async () => {
        const values = params as unknown[] | undefined;
        const result =
          values && values.length > 0
            ? await client.query(prepared ? { name: nameOf(text), text, values } : { text, values })
            : await client.query(text);
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      });
    },
  };
}
