/** Members and the permission matrix. */

import { LatchkeyError } from '../errors.js';
import {
  authorize,
  type Grant,
  isOrganizationWide,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
} from '../permissions.js';
import { defineRoute, type RouteContext } from '../router.js';
import { AddMemberBody, listOf, MemberResponse, PermissionMatrixResponse } from '../schemas.js';
import { commonErrors, conflictError } from './docs.js';
import { refuseAbove } from './guards.js';
import { toMemberView } from './views.js';

const ORG = '/organizations/{organization}';

export const memberRoutes = [
  defineRoute({
    method: 'POST',
    path: `${ORG}/members`,
    operationId: 'addMember',
    summary: 'Add a member with a role and, for developers and viewers, project/environment grants.',
    tag: 'Members',
    permission: 'members:manage',
    body: AddMemberBody,
    responses: { 201: { description: 'Added', schema: MemberResponse }, 409: conflictError, ...commonErrors },
    async handler(ctx) {
      const { store } = ctx.services;
      refuseAbove(ctx, ctx.body.role, 'add a member with that role');
      const grants = isOrganizationWide(ctx.body.role) ? [] : await checkGrants(ctx, ctx.body.grants ?? []);
      const member = {
        organization_id: ctx.organization.id,
        user: ctx.body.user,
        role: ctx.body.role,
        grants,
        created_at: ctx.at,
      };
      await store.transaction(async (tx) => {
        if ((await tx.members.create(member)) === 'exists') {
          throw new LatchkeyError('already_exists', 'That user is already a member.');
        }
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('member_added', { user: member.user, role: member.role, grants }),
        );
      });
      return { status: 201, body: toMemberView(member) };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/members`,
    operationId: 'listMembers',
    summary: 'List members.',
    tag: 'Members',
    permission: 'members:read',
    responses: {
      200: { description: 'Members', schema: listOf('members', MemberResponse) },
      ...commonErrors,
    },
    async handler(ctx) {
      const members = await ctx.services.store.members.list(ctx.organization.id);
      return { status: 200, body: { members: members.map(toMemberView) } };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/permission-matrix`,
    operationId: 'getPermissionMatrix',
    summary: 'Roles x permissions with each permission scope, and every member’s effective grants.',
    tag: 'Members',
    permission: 'members:manage',
    responses: { 200: { description: 'The matrix', schema: PermissionMatrixResponse }, ...commonErrors },
    async handler(ctx) {
      const names = Object.keys(PERMISSIONS) as Permission[];
      const members = await ctx.services.store.members.list(ctx.organization.id);
      return {
        status: 200,
        body: {
          roles: ROLES.map((role) => ({ role, permissions: [...ROLE_PERMISSIONS[role]] })),
          permissions: names.map((name) => ({ name, ...PERMISSIONS[name] })),
          matrix: Object.fromEntries(
            ROLES.map((role) => [
              role,
              Object.fromEntries(names.map((n) => [n, ROLE_PERMISSIONS[role].includes(n)])),
            ]),
          ),
          members: members.map((m) => ({ ...toMemberView(m), effective: effectiveGrants(m.role, m.grants) })),
        },
      };
    },
  }),
];

/** The permissions a member actually holds, with where each applies. */
function effectiveGrants(role: (typeof ROLES)[number], grants: Grant[]) {
  const out: { permission: string; scope: string; project?: string; environments?: string[] }[] = [];
  for (const permission of ROLE_PERMISSIONS[role]) {
    const scope = PERMISSIONS[permission].scope;
    if (isOrganizationWide(role) || scope === 'organization') {
      out.push({ permission, scope: scope === 'organization' ? 'organization' : 'all projects' });
      continue;
    }
    for (const grant of grants) {
      const principal = { organizationId: '', user: '', role, grants };
      if (!authorize(principal, permission, { project: grant.project }).ok) continue;
      out.push(
        scope === 'project'
          ? { permission, scope, project: grant.project }
          : { permission, scope, project: grant.project, environments: grant.environments },
      );
    }
  }
  return out;
}

/** Grants must name projects and environments that exist. */
export async function checkGrants(ctx: RouteContext, grants: Grant[]): Promise<Grant[]> {
  const { store } = ctx.services;
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
