import type { ApiToken, TokenRepository } from '@latchkey/core';
import { iso, isoOrNull } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'id, organization_id, user_id, name, token_hash, created_at, revoked_at';

export const toToken = (r: Record<string, unknown>): ApiToken => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  user: r['user_id'] as string,
  name: r['name'] as string,
  token_hash: r['token_hash'] as string,
  created_at: iso(r['created_at']),
  revoked_at: isoOrNull(r['revoked_at']),
});

/** API tokens on SQL, looked up by the unique index on their hash. */
export function sqlTokens(db: Runner, t: Tables): TokenRepository {
  return {
    async create(token) {
      await db.query(
        `INSERT INTO ${t.tokens} (id, organization_id, user_id, name, token_hash, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          token.id,
          token.organization_id,
          token.user,
          token.name,
          token.token_hash,
          token.created_at,
          token.revoked_at,
        ],
      );
    },
    async findByHash(tokenHash) {
      const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${t.tokens} WHERE token_hash = $1`, [
        tokenHash,
      ]);
      return rows[0] ? toToken(rows[0]) : null;
    },
    async list(organizationId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.tokens} WHERE organization_id = $1 ORDER BY created_at, id`,
        [organizationId],
      );
      return rows.map(toToken);
    },
    async revokeAllOf(organizationId, user, at) {
      const { rowCount } = await db.query(
        `UPDATE ${t.tokens} SET revoked_at = $3 WHERE organization_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
        [organizationId, user, at],
      );
      return rowCount;
    },
    async revoke(organizationId, id, at) {
      // The first revocation's time stays: revoking again changes nothing.
      const { rows } = await db.query(
        `UPDATE ${t.tokens} SET revoked_at = COALESCE(revoked_at, $3) WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [organizationId, id, at],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
  };
}
