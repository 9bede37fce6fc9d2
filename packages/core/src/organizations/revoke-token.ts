/** Revoking an API token: a member's token only within the caller's reach; a removed member's by anyone. */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { refuseAbove } from '../auth/refuse-above.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ApiToken } from '../model/model.js';
import type { OrganizationService } from './deps.js';

const notFound = () => new LatchkeyError('not_found', 'The token was not found.');

/**
 * Revokes token `tokenId`, recorded as `token_revoked`. 404 for no such token (or one gone
 * meanwhile), 403 `forbidden` for the token of a member ranked above the caller.
 */
export const revokeToken: OrganizationService<string, ApiToken> = async (deps, acting, tokenId) => {
  const { store } = deps;
  const organizationId = acting.organization.id;
  const existing = (await store.tokens.list(organizationId)).find((t) => t.id === tokenId);
  if (!existing) throw notFound();
  // A removed member's token is already dead; anyone with tokens:manage may mark it revoked.
  const owner = await store.members.get(organizationId, existing.user);
  if (owner)
    refuseAbove(acting.principal, owner.role, 'revoke the token of a member whose role is above yours');
  return recordChange(
    store,
    organizationId,
    async (tx) => {
      const revoked = await tx.tokens.revoke(organizationId, tokenId, acting.at);
      if (!revoked) throw notFound();
      return revoked;
    },
    (revoked) => actingEvent(deps.ids, acting, 'token_revoked', { token_id: revoked.id }),
  );
};
