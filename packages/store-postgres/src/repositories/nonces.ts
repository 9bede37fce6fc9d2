import type { NonceRepository } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Expired nonces are deleted this many at a time… */
const CLEANUP_BATCH = 1_000;
/** …once every this many consumptions. */
const CLEANUP_EVERY = 256;

/**
 * Push nonces on SQL. One statement consumes a nonce: it inserts it, or takes over an expired
 * entry, or (a live entry: a replay) does nothing, and says which by returning a row or not.
 */
export function sqlNonces(db: Runner, t: Tables): NonceRepository {
  let consumed = 0;
  return {
    async consume(scope, nonce, expiresAt, now) {
      const { rows } = await db.query(
        `INSERT INTO ${t.nonces} AS n (scope, nonce, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (scope, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE n.expires_at <= $4
         RETURNING 1`,
        [scope, nonce, expiresAt, now],
      );
      if (++consumed % CLEANUP_EVERY === 0) {
        await db.query(
          `DELETE FROM ${t.nonces} WHERE ctid = ANY (ARRAY(
             SELECT ctid FROM ${t.nonces} WHERE expires_at <= $1 LIMIT ${CLEANUP_BATCH}
           ))`,
          [now],
        );
      }
      return rows.length > 0;
    },
  };
}
