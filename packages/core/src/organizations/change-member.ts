/**
 * Changing a member's role and grants. Nobody acts on a member ranked above them nor gives a role
 * above their own, and the organization's last owner is never demoted (decided by the store).
 */
import { type Acting, actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { grantsWithRole } from '../auth/member-grants.js';
import { mayChangeRole } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Member } from '../model/model.js';
import type { Grant, Role } from '../model/roles.js';
import type { OrganizationDeps } from './deps.js';
import { checkGrants } from './grants-check.js';
import { findMember } from './member-lookup.js';
import { memberChangeRefused } from './member-refusal.js';

/** What to change of a member: a new role, new grants, or both (what is absent is kept). */
export interface MemberUpdate {
  role?: Role | undefined;
  grants?: Grant[] | undefined;
}

/**
 * Changes member `user` as `update` asks, recorded as `member_updated` (role and grants, from and
 * to). 404 for no such member, 403 `forbidden` for a move out of the caller's reach (checked again on
 * the member as the transaction reads it), 400 for unknown grants, 409 `last_owner`.
 */
export async function changeMember(
  deps: Pick<OrganizationDeps, 'store' | 'ids'>,
  acting: Acting,
  user: string,
  update: MemberUpdate,
): Promise<Member> {
  const { principal } = acting;
  const organizationId = acting.organization.id;
  const before = await findMember(deps.store, organizationId, user);
  const role = update.role ?? before.role;
  if (!mayChangeRole(principal, before.role, role).ok) {
    throw new LatchkeyError(
      'forbidden',
      `Your role (${principal.role}) cannot make a ${before.role} a ${role}.`,
    );
  }
  const grants = await grantsWithRole(role, update.grants, before, (asked) =>
    checkGrants(deps.store, organizationId, asked),
  );
  const updated = await recordChange(
    deps.store,
    organizationId,
    async (tx) => {
      const change = await tx.members.update(organizationId, before.user, { role, grants });
      if (!change.ok) throw memberChangeRefused(change);
      // Re-checked on the member as it was inside the transaction, not as first read.
      if (!mayChangeRole(principal, change.before.role, role).ok) {
        throw new LatchkeyError('forbidden', `Your role (${principal.role}) cannot change this member.`);
      }
      return change;
    },
    ({ before, member }) =>
      actingEvent(deps.ids, acting, 'member_updated', {
        user: member.user,
        role: { from: before.role, to: member.role },
        grants: { from: before.grants, to: member.grants },
      }),
  );
  return updated.member;
}
