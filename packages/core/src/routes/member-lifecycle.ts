/**
 * Changing and removing members, each one call into `organizations/`: nobody acts on a member
 * ranked above them, nobody gives a role above their own, and the organization's last owner is
 * never demoted or removed (409 `last_owner`). Removing a member revokes their tokens and devices.
 */

import { toMemberView } from '../http/views.js';
import { changeMember } from '../organizations/change-member.js';
import { removeMember } from '../organizations/remove-member.js';
import { MemberResponse, RemovedMemberResponse, UpdateMemberBody } from '../schemas/api.js';
import { answers, error } from './docs.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { pathParam, serviceCall } from './service-call.js';

const MEMBER = `${ORGANIZATION}/members/{user}`;
const lastOwnerError = error('last_owner: the organization’s last owner cannot be demoted or removed');

/** The routes that change members: tagged Members, for holders of members:manage. */
const memberChangeRoute = routeGroup({ tag: 'Members', permission: 'members:manage' });

export const memberLifecycleRoutes = [
  memberChangeRoute('PATCH', MEMBER, {
    operationId: 'updateMember',
    summary: 'Change a member’s role and/or grants.',
    body: UpdateMemberBody,
    responses: answers(200, 'Changed', MemberResponse, { 409: lastOwnerError }),
    async handler(ctx) {
      const member = await changeMember(ctx.deps, ctx, ctx.params['user']!, ctx.body);
      return { status: 200, body: toMemberView(member) };
    },
  }),

  memberChangeRoute('DELETE', MEMBER, {
    operationId: 'removeMember',
    summary: 'Remove a member: their API tokens stop working at once and their devices are revoked.',
    responses: answers(200, 'Removed', RemovedMemberResponse, { 409: lastOwnerError }),
    handler: serviceCall(removeMember, pathParam('user'), (removed) => removed),
  }),
];
