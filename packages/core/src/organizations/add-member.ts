/** Adding a member: a role within the caller's reach, and grants naming what exists. */
import { actingEvent } from '../activity/acting.js';
import { recordCreate } from '../activity/record-change.js';
import { grantsWithRole } from '../auth/member-grants.js';
import { refuseAbove } from '../auth/refuse-above.js';
import type { Member } from '../model/model.js';
import type { Grant, Role } from '../model/roles.js';
import type { OrganizationService } from './deps.js';
import { checkGrants } from './grants-check.js';

/** Who to add: a user, a role, and (for developers and viewers) their grants. */
export interface NewMember {
  user: string;
  role: Role;
  grants?: Grant[] | undefined;
}

/**
 * Adds `input.user` to the acting organization, recorded as `member_added`. Refused with 403
 * `forbidden` for a role above the caller's, 400 `invalid_request` for grants naming unknown
 * projects or environments, 409 `already_exists` for a member already there.
 */
export const addMember: OrganizationService<NewMember, Member> = async (deps, acting, input) => {
  refuseAbove(acting.principal, input.role, 'add a member with that role');
  const organizationId = acting.organization.id;
  const grants = await grantsWithRole(input.role, input.grants ?? [], undefined, (asked) =>
    checkGrants(deps.store, organizationId, asked),
  );
  const member = {
    organization_id: organizationId,
    user: input.user,
    role: input.role,
    grants,
    created_at: acting.at,
  };
  await recordCreate(
    deps.store,
    organizationId,
    (tx) => tx.members.create(member),
    'That user is already a member.',
    () => actingEvent(deps.ids, acting, 'member_added', { user: member.user, role: member.role, grants }),
  );
  return member;
};
