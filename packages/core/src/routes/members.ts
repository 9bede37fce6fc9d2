/** Members and the permission matrix. */

import { effectiveGrants } from '../auth/effective-grants.js';
import { grantsWithRole } from '../auth/member-grants.js';
import { permissionMatrix } from '../auth/permission-matrix.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import { toMemberView } from '../http/views.js';
import type { Grant } from '../model/roles.js';
import { AddMemberBody, MemberResponse, PermissionMatrixResponse } from '../schemas/api.js';
import { answers, conflictError } from './docs.js';
import { refuseAbove } from './guards.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';

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
    async handler(ctx) {
      refuseAbove(ctx, ctx.body.role, 'add a member with that role');
      const grants = await grantsWithRole(ctx.body.role, ctx.body.grants ?? [], undefined, (asked) =>
        checkGrants(ctx, asked),
      );
      const member = {
        organization_id: ctx.organization.id,
        user: ctx.body.user,
        role: ctx.body.role,
        grants,
        created_at: ctx.at,
      };
      await recordChange(
        ctx,
        async (tx) => {
          if ((await tx.members.create(member)) === 'exists') {
            throw new LatchkeyError('already_exists', 'That user is already a member.');
          }
        },
        () => ctx.event('member_added', { user: member.user, role: member.role, grants }),
      );
      return { status: 201, body: toMemberView(member) };
    },
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
      const members = await ctx.deps.store.members.list(ctx.organization.id);
      return {
        status: 200,
        body: {
          ...permissionMatrix(),
          members: members.map((m) => ({ ...toMemberView(m), effective: effectiveGrants(m.role, m.grants) })),
        },
      };
    },
  }),
];

/** Grants must name projects and environments that exist. */
export async function checkGrants(ctx: RouteContext, grants: Grant[]): Promise<Grant[]> {
  const { store } = ctx.deps;
  const details: { path: string; message: string }[] = [];
  for (const [i, grant] of grants.entries()) {
    const project = await store.projects.get(ctx.organization.id, grant.project);
    if (!project) {
      details.push({ path: `body.grants.${i}.project`, message: 'no such project' });
      continue;
    }
    for (const [j, env] of grant.environments.entries()) {
      if (env !== '*' && !(await store.environments.get(project.id, env))) {
        details.push({ path: `body.grants.${i}.environments.${j}`, message: 'no such environment' });
      }
    }
  }
  if (details.length > 0)
    throw new LatchkeyError('invalid_request', 'The grants name unknown resources.', { details });
  return grants;
}
