/** Port: API tokens, stored only as the SHA-256 of their value. */
import type { ApiToken } from '../../model/model.js';

/** Token ids and hashes are unique; a token is never deleted, only revoked. */
export interface TokenRepository {
  /** Inserts a token; its id and hash are fresh (random), so no conflict check is needed. */
  create(token: ApiToken): Promise<void>;
  /** Looks a token up by the hex SHA-256 of its value; revoked tokens are returned too. */
  findByHash(tokenHash: string): Promise<ApiToken | null>;
  list(organizationId: string): Promise<ApiToken[]>;
  /** Marks a token revoked; returns it, or null when absent in that organization. Idempotent. */
  revoke(organizationId: string, id: string, at: string): Promise<ApiToken | null>;
  /** Revokes every live token of `user` in the organization; returns how many. */
  revokeAllOf(organizationId: string, user: string, at: string): Promise<number>;
}
