/**
 * Changing and removing members. Nobody acts on a member ranked above them, nobody gives a role
 * above their own, and the organization's last owner is never demoted or removed (409 `last_owner`,
 * decided atomically by the store). Removing a member revokes their tokens and devices in the same
 * unit of work, so nothing they held keeps working.
 */
import { LatchkeyError } from '../errors.js';
import { isOrganizationWide, mayChangeRole } from '../permissions.js';
import { defineRoute, type RouteContext } from '../router.js';
import { MemberResponse, RemovedMemberResponse, UpdateMemberBody } from '../schemas.js';
import type { MemberChange } from '../store/types.js';
import { commonErrors, error } from './docs.js';
import { checkGrants } from './members.js';
import { toMemberView } from './views.js';

const MEMBER = '/organizations/{organization}/members/{user}';
const lastOwnerError = error('last_owner: the organization’s last owner cannot be demoted or removed');

/** The member the path names, or 404. */
async function target(ctx: RouteContext) {
  const member = await ctx.services.store.members.get(ctx.organization.id, ctx.params['user']!);
  if (!member) throw new LatchkeyError('not_found', 'The member was not found.');
  return member;
}

function refused(change: Extract<MemberChange, { ok: false }>): LatchkeyError {
  return change.reason === 'last_owner'
    ? new LatchkeyError(
        'last_owner',
        'This is the organization’s last owner: make another member owner first.',
      )
    : new LatchkeyError('not_found', 'The member was not found.');
}

export const memberLifecycleRoutes = [
  defineRoute({
    method: 'PATCH',
    path: MEMBER,
    operationId: 'updateMember',
    summary: 'Change a member’s role and/or grants.',
    tag: 'Members',
    permission: 'members:manage',
    body: UpdateMemberBody,
    responses: {
      200: { description: 'Changed', schema: MemberResponse },
      409: lastOwnerError,
      ...commonErrors,
    },
    async handler(ctx) {
      const before = await target(ctx);
      const role = ctx.body.role ?? before.role;
      if (!mayChangeRole(ctx.principal, before.role, role).ok) {
        throw new LatchkeyError(
          'forbidden',
          `Your role (${ctx.principal.role}) cannot make a ${before.role} a ${role}.`,
        );
      }
      const grants = isOrganizationWide(role)
        ? []
        : ctx.body.grants !== undefined
          ? await checkGrants(ctx, ctx.body.grants)
          : isOrganizationWide(before.role)
            ? []
            : before.grants;
      const member = await ctx.services.store.transaction(async (tx) => {
        const change = await tx.members.update(ctx.organization.id, before.user, { role, grants });
        if (!change.ok) throw refused(change);
        // Re-checked on the member as it was inside the transaction, not as first read.
        if (!mayChangeRole(ctx.principal, change.before.role, role).ok) {
          throw new LatchkeyError(
            'forbidden',
            `Your role (${ctx.principal.role}) cannot change this member.`,
          );
        }
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('member_updated', {
            user: change.member.user,
            role: { from: change.before.role, to: change.member.role },
            grants: { from: change.before.grants, to: change.member.grants },
          }),
        );
        return change.member;
      });
      return { status: 200, body: toMemberView(member) };
    },
  }),

  defineRoute({
    method: 'DELETE',
    path: MEMBER,
    operationId: 'removeMember',
    summary: 'Remove a member: their API tokens stop working at once and their devices are revoked.',
    tag: 'Members',
    permission: 'members:manage',
    responses: {
      200: { description: 'Removed', schema: RemovedMemberResponse },
      409: lastOwnerError,
      ...commonErrors,
    },
    async handler(ctx) {
      const before = await target(ctx);
      if (!mayChangeRole(ctx.principal, before.role, before.role).ok) {
        throw new LatchkeyError(
          'forbidden',
          `Your role (${ctx.principal.role}) cannot remove a ${before.role}.`,
        );
      }
      const body = await ctx.services.store.transaction(async (tx) => {
        const change = await tx.members.remove(ctx.organization.id, before.user);
        if (!change.ok) throw refused(change);
        if (!mayChangeRole(ctx.principal, change.before.role, change.before.role).ok) {
          throw new LatchkeyError(
            'forbidden',
            `Your role (${ctx.principal.role}) cannot remove this member.`,
          );
        }
        const tokens = await tx.tokens.revokeAllOf(ctx.organization.id, before.user, ctx.at);
        const devices = await tx.devices.revokeAllOf(ctx.organization.id, before.user, ctx.at);
        const removed = {
          user: change.before.user,
          role: change.before.role,
          tokens_revoked: tokens,
          devices_revoked: devices,
        };
        await tx.activity.append(ctx.organization.id, ctx.draft('member_removed', removed));
        return removed;
      });
      return { status: 200, body };
    },
  }),
];
