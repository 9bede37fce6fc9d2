import type { NonceRepository } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Expired nonces are deleted this many at a time… */
const CLEANUP_BATCH = 1_000;
/** …once every this many consumptions of the store's nonces. */
const CLEANUP_EVERY = 256;

/**
 * Consumptions per store (its tables): counted across the repositories of every transaction, which
 * are made afresh for each one.
 */
const consumptions = new WeakMap<Tables, number>();

/**
 * The statement that consumes a nonce: it inserts it, or takes over an expired entry, or (a live
 * entry: a replay) does nothing, and says which by returning a row or not. $1 scope, $2 nonce,
 * $3 expires at, $4 now (ms), numbered from `at` instead when given (as a CTE of a larger statement).
 */
export function consumeNonceSql(t: Tables, at = 1): string {
  return `INSERT INTO ${t.nonces} AS n (scope, nonce, expires_at) VALUES ($${at}, $${at + 1}, $${at + 2})
    ON CONFLICT (scope, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE n.expires_at <= $${at + 3}
    RETURNING 1`;
}

/** Counts a consumption, and every {@link CLEANUP_EVERY}th deletes a batch of expired nonces. */
export async function afterConsume(db: SqlQueryable, t: Tables, now: number): Promise<void> {
  const count = (consumptions.get(t) ?? 0) + 1;
  consumptions.set(t, count);
  if (count % CLEANUP_EVERY !== 0) return;
  await db.query(
    `DELETE FROM ${t.nonces} WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM ${t.nonces} WHERE expires_at <= $1 LIMIT ${CLEANUP_BATCH}
     ))`,
    [now],
  );
}

/** Push nonces on SQL: one statement consumes a nonce ({@link consumeNonceSql}). */
export function sqlNonces(db: Runner, t: Tables): NonceRepository {
  return {
    async consume(scope, nonce, expiresAt, now) {
      const { rows } = await db.query(consumeNonceSql(t), [scope, nonce, expiresAt, now]);
      await afterConsume(db, t, now);
      return rows.length > 0;
    },
  };
}
