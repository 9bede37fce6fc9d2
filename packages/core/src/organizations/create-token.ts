/** Creating an API token for a member: it acts with that member's role, so only within the caller's reach. */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { refuseAbove } from '../auth/refuse-above.js';
import { generateApiToken, hashToken } from '../auth/tokens.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ApiToken } from '../model/model.js';
import type { OrganizationService } from './deps.js';

/** A new token: its record (only the hash is stored) and the token itself, to be shown once. */
export interface TokenCreated {
  record: ApiToken;
  token: string;
}

/**
 * Creates token `input.name` for member `input.user`, recorded as `token_created`. 400
 * `invalid_request` for a user who is not a member, 403 `forbidden` for a member ranked above the caller.
 */
export const createToken: OrganizationService<{ user: string; name: string }, TokenCreated> = async (
  deps,
  acting,
  input,
) => {
  const organizationId = acting.organization.id;
  const member = await deps.store.members.get(organizationId, input.user);
  if (!member) {
    throw new LatchkeyError('invalid_request', 'The user is not a member of this organization.', {
      details: [{ path: 'body.user', message: 'not a member' }],
    });
  }
  // A token acts with its member's role: minting one for a higher role would be a promotion.
  refuseAbove(acting.principal, member.role, 'create a token for a member whose role is above yours');
  const token = generateApiToken();
  const record: ApiToken = {
    id: deps.ids('tok'),
    organization_id: organizationId,
    user: input.user,
    name: input.name,
    token_hash: hashToken(token),
    created_at: acting.at,
    revoked_at: null,
  };
  await recordChange(
    deps.store,
    organizationId,
    (tx) => tx.tokens.create(record),
    () =>
      actingEvent(deps.ids, acting, 'token_created', {
        token_id: record.id,
        user: record.user,
        name: record.name,
      }),
  );
  return { record, token };
};
