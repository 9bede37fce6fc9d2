/** Members and the permission matrix: each route one call into `organizations/`. */

import { toMemberView } from '../http/views.js';
import { addMember } from '../organizations/add-member.js';
import { memberPermissions } from '../organizations/member-permissions.js';
import { AddMemberBody, MemberResponse, PermissionMatrixResponse } from '../schemas/api.js';
import { answers, conflictError } from './docs.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { serviceCall, theBody } from './service-call.js';

const MEMBERS = `${ORGANIZATION}/members`;

/** The routes of members: tagged Members. */
const memberRoute = routeGroup({ tag: 'Members' });

export const memberRoutes = [
  memberRoute('POST', MEMBERS, {
    operationId: 'addMember',
    summary: 'Add a member with a role and, for developers and viewers, project/environment grants.',
    permission: 'members:manage',
    body: AddMemberBody,
    responses: answers(201, 'Added', MemberResponse, { 409: conflictError }),
    handler: serviceCall(addMember, theBody, toMemberView, 201),
  }),

  memberRoute('GET', MEMBERS, {
    operationId: 'listMembers',
    summary: 'List members.',
    permission: 'members:read',
    ...listing('members', MemberResponse, toMemberView, (ctx) =>
      ctx.deps.store.members.list(ctx.organization.id),
    ),
  }),

  memberRoute('GET', `${ORGANIZATION}/permission-matrix`, {
    operationId: 'getPermissionMatrix',
    summary: 'Roles x permissions with each permission scope, and every member’s effective grants.',
    permission: 'members:manage',
    responses: answers(200, 'The matrix', PermissionMatrixResponse),
    async handler(ctx) {
      const { members, ...matrix } = await memberPermissions(ctx.deps.store, ctx.organization.id);
      return {
        status: 200,
        body: {
          ...matrix,
          members: members.map((m) => ({ ...toMemberView(m.member), effective: m.effective })),
        },
      };
    },
  }),
];
