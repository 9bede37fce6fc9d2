import type { ApiToken, TokenRepository } from '@latchkey/core/store';
import { recordColumns, text, timestamp, timestampOrNull } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const TOKEN = recordColumns<ApiToken>({
  id: text(),
  organization_id: text(),
  user: text('user_id'),
  name: text(),
  token_hash: text(),
  created_at: timestamp(),
  revoked_at: timestampOrNull(),
});

/** A token's row (or its JSON object) as the record. */
export const toToken = TOKEN.read;

/** API tokens on SQL, looked up by the unique index on their hash. */
export function sqlTokens(db: Runner, t: Tables): TokenRepository {
  const tokens = recordTable(db, t.tokens, TOKEN);
  return {
    create: (token) => tokens.insert(token),
    findByHash: (tokenHash) => tokens.find('token_hash = $1', [tokenHash]),
    list: (organizationId) => tokens.list('organization_id = $1 ORDER BY created_at, id', [organizationId]),
    async revokeAllOf(organizationId, user, at) {
      const { rowCount } = await db.query(
        `UPDATE ${t.tokens} SET revoked_at = $3 WHERE organization_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
        [organizationId, user, at],
      );
      return rowCount;
    },
    // The first revocation's time stays: revoking again changes nothing.
    revoke: (organizationId, id, at) =>
      tokens.update('revoked_at = COALESCE(revoked_at, $3)', 'organization_id = $1 AND id = $2', [
        organizationId,
        id,
        at,
      ]),
  };
}
