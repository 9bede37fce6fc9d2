/** Organizations, projects, environments, members, tokens and the permission matrix. */

import { z } from 'zod';
import { generateApiToken, hashToken } from '../crypto.js';
import { LatchkeyError } from '../errors.js';
import type { Grant } from '../permissions.js';
import {
  authorize,
  canSeeProject,
  isOrganizationWide,
  mayActOn,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
  type Role,
} from '../permissions.js';
import { defineRoute, type RouteContext } from '../router.js';
import {
  AddMemberBody,
  CreatedTokenResponse,
  CreateEnvironmentBody,
  CreateProjectBody,
  CreateTokenBody,
  EnvironmentResponse,
  MemberResponse,
  OrganizationResponse,
  PermissionMatrixResponse,
  ProjectResponse,
  TokenResponse,
  UpdateEnvironmentBody,
} from '../schemas.js';
import { commonErrors, conflictError } from './docs.js';
import { toEnvironmentView, toMemberView, toOrganizationView, toProjectView, toTokenView } from './views.js';

const ORG = '/organizations/{organization}';
const PROJECT = `${ORG}/projects/{project}`;

const list = <T extends z.ZodType>(key: string, item: T) => z.strictObject({ [key]: z.array(item) });

export const organizationRoutes = [
  defineRoute({
    method: 'GET',
    path: ORG,
    operationId: 'getOrganization',
    summary: 'Read your organization.',
    tag: 'Organizations',
    permission: 'organization:read',
    responses: { 200: { description: 'The organization', schema: OrganizationResponse }, ...commonErrors },
    async handler(ctx) {
      return { status: 200, body: toOrganizationView(ctx.organization) };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${ORG}/projects`,
    operationId: 'createProject',
    summary: 'Create a project.',
    tag: 'Projects',
    permission: 'projects:manage',
    body: CreateProjectBody,
    responses: {
      201: { description: 'Created', schema: ProjectResponse },
      409: conflictError,
      ...commonErrors,
    },
    async handler(ctx) {
      const { store, ids } = ctx.services;
      const project = {
        id: ids('prj'),
        organization_id: ctx.organization.id,
        slug: ctx.body.slug,
        name: ctx.body.name ?? ctx.body.slug,
        created_at: ctx.at,
      };
      if ((await store.projects.create(project)) === 'exists') {
        throw new LatchkeyError('already_exists', `A project ${ctx.body.slug} already exists.`);
      }
      await store.activity.append(
        ctx.organization.id,
        ctx.draft('project_created', { project: project.slug }, { project: project.slug }),
      );
      return { status: 201, body: toProjectView(project) };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/projects`,
    operationId: 'listProjects',
    summary: 'List the projects you can see.',
    tag: 'Projects',
    permission: 'projects:read',
    responses: {
      200: { description: 'Projects', schema: list('projects', ProjectResponse) },
      ...commonErrors,
    },
    async handler(ctx) {
      const projects = await ctx.services.store.projects.list(ctx.organization.id);
      return {
        status: 200,
        body: { projects: projects.filter((p) => canSeeProject(ctx.principal, p.slug)).map(toProjectView) },
      };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${PROJECT}/environments`,
    operationId: 'createEnvironment',
    summary: 'Create an environment in a project.',
    tag: 'Projects',
    permission: 'environments:manage',
    body: CreateEnvironmentBody,
    responses: {
      201: { description: 'Created', schema: EnvironmentResponse },
      409: conflictError,
      ...commonErrors,
    },
    async handler(ctx) {
      const project = ctx.project!;
      const environment = {
        id: ctx.services.ids('env'),
        organization_id: ctx.organization.id,
        project_id: project.id,
        slug: ctx.body.slug,
        require_strict_conflict_mode: ctx.body.require_strict_conflict_mode ?? false,
        created_at: ctx.at,
      };
      if ((await ctx.services.store.environments.create(environment)) === 'exists') {
        throw new LatchkeyError(
          'already_exists',
          `An environment ${ctx.body.slug} already exists in ${project.slug}.`,
        );
      }
      await ctx.services.store.activity.append(
        ctx.organization.id,
        ctx.draft(
          'environment_created',
          { require_strict_conflict_mode: environment.require_strict_conflict_mode },
          { environment: environment.slug },
        ),
      );
      return { status: 201, body: toEnvironmentView(environment, project.slug) };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${PROJECT}/environments`,
    operationId: 'listEnvironments',
    summary: 'List the environments of a project.',
    tag: 'Projects',
    permission: 'projects:read',
    responses: {
      200: { description: 'Environments', schema: list('environments', EnvironmentResponse) },
      ...commonErrors,
    },
    async handler(ctx) {
      const project = ctx.project!;
      const environments = await ctx.services.store.environments.list(project.id);
      return {
        status: 200,
        body: { environments: environments.map((e) => toEnvironmentView(e, project.slug)) },
      };
    },
  }),

  defineRoute({
    method: 'PATCH',
    path: `${PROJECT}/environments/{environment}`,
    operationId: 'updateEnvironment',
    summary: 'Change environment settings, e.g. require strict conflict mode for every push.',
    tag: 'Projects',
    permission: 'environments:manage',
    body: UpdateEnvironmentBody,
    responses: { 200: { description: 'Updated', schema: EnvironmentResponse }, ...commonErrors },
    async handler(ctx) {
      const updated = await ctx.services.store.environments.update(ctx.environment!.id, ctx.body);
      if (!updated) throw new LatchkeyError('not_found', 'The environment was not found.');
      await ctx.services.store.activity.append(
        ctx.organization.id,
        ctx.draft('environment_updated', {
          require_strict_conflict_mode: updated.require_strict_conflict_mode,
        }),
      );
      return { status: 200, body: toEnvironmentView(updated, ctx.project!.slug) };
    },
  }),

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
      if ((await store.members.create(member)) === 'exists') {
        throw new LatchkeyError('already_exists', 'That user is already a member.');
      }
      await store.activity.append(
        ctx.organization.id,
        ctx.draft('member_added', { user: member.user, role: member.role, grants }),
      );
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
    responses: { 200: { description: 'Members', schema: list('members', MemberResponse) }, ...commonErrors },
    async handler(ctx) {
      const members = await ctx.services.store.members.list(ctx.organization.id);
      return { status: 200, body: { members: members.map(toMemberView) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${ORG}/tokens`,
    operationId: 'createToken',
    summary: 'Create an API token for a member. The token is returned once.',
    tag: 'Tokens',
    permission: 'tokens:manage',
    body: CreateTokenBody,
    responses: {
      201: { description: 'Created; `token` is shown only here', schema: CreatedTokenResponse },
      ...commonErrors,
    },
    async handler(ctx) {
      const { store, ids } = ctx.services;
      const member = await store.members.get(ctx.organization.id, ctx.body.user);
      if (!member) {
        throw new LatchkeyError('invalid_request', 'The user is not a member of this organization.', {
          details: [{ path: 'body.user', message: 'not a member' }],
        });
      }
      // A token acts with its member's role: minting one for a higher role would be a promotion.
      refuseAbove(ctx, member.role, 'create a token for a member whose role is above yours');
      const token = generateApiToken();
      const record = {
        id: ids('tok'),
        organization_id: ctx.organization.id,
        user: ctx.body.user,
        name: ctx.body.name,
        token_hash: hashToken(token),
        created_at: ctx.at,
        revoked_at: null,
      };
      await store.tokens.create(record);
      await store.activity.append(
        ctx.organization.id,
        ctx.draft('token_created', { token_id: record.id, user: record.user, name: record.name }),
      );
      return { status: 201, body: { ...toTokenView(record), token } };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/tokens`,
    operationId: 'listTokens',
    summary: 'List API tokens (never their values).',
    tag: 'Tokens',
    permission: 'tokens:manage',
    responses: { 200: { description: 'Tokens', schema: list('tokens', TokenResponse) }, ...commonErrors },
    async handler(ctx) {
      const tokens = await ctx.services.store.tokens.list(ctx.organization.id);
      return { status: 200, body: { tokens: tokens.map(toTokenView) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${ORG}/tokens/{token}/revoke`,
    operationId: 'revokeToken',
    summary: 'Revoke an API token.',
    tag: 'Tokens',
    permission: 'tokens:manage',
    responses: { 200: { description: 'Revoked', schema: TokenResponse }, ...commonErrors },
    async handler(ctx) {
      const { store } = ctx.services;
      const id = ctx.params['token']!;
      const existing = (await store.tokens.list(ctx.organization.id)).find((t) => t.id === id);
      if (!existing) throw new LatchkeyError('not_found', 'The token was not found.');
      // A removed member's token is already dead; anyone with tokens:manage may mark it revoked.
      const owner = await store.members.get(ctx.organization.id, existing.user);
      if (owner) refuseAbove(ctx, owner.role, 'revoke the token of a member whose role is above yours');
      const token = await store.tokens.revoke(ctx.organization.id, id, ctx.at);
      if (!token) throw new LatchkeyError('not_found', 'The token was not found.');
      await store.activity.append(ctx.organization.id, ctx.draft('token_revoked', { token_id: token.id }));
      return { status: 200, body: toTokenView(token) };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/permission-matrix`,
    operationId: 'getPermissionMatrix',
    summary: 'Roles x permissions with each permission scope, and every member’s effective grants.',
    tag: 'Members',
    permission: 'members:read',
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

/** Throws 403 `forbidden` when the caller's role ranks below `targetRole` (see {@link mayActOn}). */
function refuseAbove(ctx: RouteContext, targetRole: Role, what: string): void {
  if (!mayActOn(ctx.principal, targetRole).ok) {
    throw new LatchkeyError('forbidden', `Your role (${ctx.principal.role}) cannot ${what}.`);
  }
}

/** Grants must name projects and environments that exist. */
async function checkGrants(ctx: RouteContext, grants: Grant[]): Promise<Grant[]> {
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
