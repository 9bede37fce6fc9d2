/**
 * Removing a member: within the caller's reach, never the organization's last owner, and their
 * tokens and devices revoked in the same unit of work, so nothing they held keeps working.
 */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { mayChangeRole } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Role } from '../model/roles.js';
import type { OrganizationService } from './deps.js';
import { findMember } from './member-lookup.js';
import { memberChangeRefused } from './member-refusal.js';

/** A removed member, with how many of their tokens and devices were revoked with them. */
export interface RemovedMember {
  user: string;
  role: Role;
  tokens_revoked: number;
  devices_revoked: number;
}

/**
 * Removes member `user`, recorded as `member_removed` with what it answers. 404 for no such member,
 * 403 `forbidden` for one ranked above the caller (checked again inside the transaction), 409
 * `last_owner`.
 */
export const removeMember: OrganizationService<string, RemovedMember> = async (deps, acting, user) => {
  const { principal, at } = acting;
  const organizationId = acting.organization.id;
  const before = await findMember(deps.store, organizationId, user);
  if (!mayChangeRole(principal, before.role, before.role).ok) {
    throw new LatchkeyError('forbidden', `Your role (${principal.role}) cannot remove a ${before.role}.`);
  }
  return recordChange(
    deps.store,
    organizationId,
    async (tx) => {
      const change = await tx.members.remove(organizationId, before.user);
      if (!change.ok) throw memberChangeRefused(change);
      if (!mayChangeRole(principal, change.before.role, change.before.role).ok) {
        throw new LatchkeyError('forbidden', `Your role (${principal.role}) cannot remove this member.`);
      }
      const tokens = await tx.tokens.revokeAllOf(organizationId, before.user, at);
      const devices = await tx.devices.revokeAllOf(organizationId, before.user, at);
      return {
        user: change.before.user,
        role: change.before.role,
        tokens_revoked: tokens,
        devices_revoked: devices,
      };
    },
    (removed) => actingEvent(deps.ids, acting, 'member_removed', removed),
  );
};
