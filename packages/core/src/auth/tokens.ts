/** Built-in API tokens: how one is made, and the only form in which it is stored. */
import { createHash, randomBytes } from 'node:crypto';

/** Prefix of built-in API tokens. */
export const TOKEN_PREFIX = 'lk_';

/** A new API token: `lk_` + 32 random bytes, base64url. */
export function generateApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
