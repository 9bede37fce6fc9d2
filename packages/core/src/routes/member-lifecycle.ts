/**
 * Changing and removing members. Nobody acts on a member ranked above them, nobody gives a role
 * above their own, and the organization's last owner is never demoted or removed (409 `last_owner`,
 * decided atomically by the store). Removing a member revokes their tokens and devices in the same
 * unit of work, so nothing they held keeps working.
 */

import { grantsWithRole } from '../auth/member-grants.js';
import { mayChangeRole } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import { toMemberView } from '../http/views.js';
import { checkGrants } from '../organizations/grants-check.js';
import { findMember } from '../organizations/member-lookup.js';
import { MemberResponse, RemovedMemberResponse, UpdateMemberBody } from '../schemas/api.js';
import type { MemberChange } from '../store/types.js';
import { answers, error } from './docs.js';
import { ORGANIZATION } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';

const MEMBER = `${ORGANIZATION}/members/{user}`;
const lastOwnerError = error('last_owner: the organization’s last owner cannot be demoted or removed');

/** The routes that change members: tagged Members, for holders of members:manage. */
const memberChangeRoute = routeGroup({ tag: 'Members', permission: 'members:manage' });

/** The member the path names, or 404. */
const target = (ctx: RouteContext) => findMember(ctx.deps.store, ctx.organization.id, ctx.params['user']!);

function refused(change: Extract<MemberChange, { ok: false }>): LatchkeyError {
  return change.reason === 'last_owner'
    ? new LatchkeyError(
        'last_owner',
        'This is the organization’s last owner: make another member owner first.',
      )
    : new LatchkeyError('not_found', 'The member was not found.');
}

export const memberLifecycleRoutes = [
  memberChangeRoute('PATCH', MEMBER, {
    operationId: 'updateMember',
    summary: 'Change a member’s role and/or grants.',
    body: UpdateMemberBody,
    responses: answers(200, 'Changed', MemberResponse, { 409: lastOwnerError }),
    async handler(ctx) {
      const before = await target(ctx);
      const role = ctx.body.role ?? before.role;
      if (!mayChangeRole(ctx.principal, before.role, role).ok) {
        throw new LatchkeyError(
          'forbidden',
          `Your role (${ctx.principal.role}) cannot make a ${before.role} a ${role}.`,
        );
      }
      const grants = await grantsWithRole(role, ctx.body.grants, before, (asked) =>
        checkGrants(ctx.deps.store, ctx.organization.id, asked),
      );
      const updated = await recordChange(
        ctx,
        async (tx) => {
          const change = await tx.members.update(ctx.organization.id, before.user, { role, grants });
          if (!change.ok) throw refused(change);
          // Re-checked on the member as it was inside the transaction, not as first read.
          if (!mayChangeRole(ctx.principal, change.before.role, role).ok) {
            throw new LatchkeyError(
              'forbidden',
              `Your role (${ctx.principal.role}) cannot change this member.`,
            );
          }
          return change;
        },
        ({ before, member }) =>
          ctx.event('member_updated', {
            user: member.user,
            role: { from: before.role, to: member.role },
            grants: { from: before.grants, to: member.grants },
          }),
      );
      return { status: 200, body: toMemberView(updated.member) };
    },
  }),

  memberChangeRoute('DELETE', MEMBER, {
    operationId: 'removeMember',
    summary: 'Remove a member: their API tokens stop working at once and their devices are revoked.',
    responses: answers(200, 'Removed', RemovedMemberResponse, { 409: lastOwnerError }),
    async handler(ctx) {
      const before = await target(ctx);
      if (!mayChangeRole(ctx.principal, before.role, before.role).ok) {
        throw new LatchkeyError(
          'forbidden',
          `Your role (${ctx.principal.role}) cannot remove a ${before.role}.`,
        );
      }
      const body = await recordChange(
        ctx,
        async (tx) => {
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
          return {
            user: change.before.user,
            role: change.before.role,
            tokens_revoked: tokens,
            devices_revoked: devices,
          };
        },
        (removed) => ctx.event('member_removed', removed),
      );
      return { status: 200, body };
    },
  }),
];
