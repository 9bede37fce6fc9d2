/** Organizations, projects and environments. */

import { canSeeProject } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { defineRoute, type RouteContext } from '../http/router.js';
import { toEnvironmentView, toOrganizationView, toProjectView } from '../http/views.js';
import type { Environment } from '../model/model.js';
import {
  CreateEnvironmentBody,
  CreateProjectBody,
  EnvironmentResponse,
  OrganizationResponse,
  ProjectResponse,
  UpdateEnvironmentBody,
} from '../schemas/api.js';
import { answers, conflictError, error } from './docs.js';
import { listing } from './list-route.js';
import { ENVIRONMENT, ORGANIZATION, PROJECT } from './paths.js';
import { recordChange } from './record-change.js';

/** An environment as listed: with the slug of the project the path names. */
const environmentView = (environment: Environment, ctx: RouteContext) =>
  toEnvironmentView(environment, ctx.project!.slug);

export const organizationRoutes = [
  defineRoute('GET', ORGANIZATION, {
    operationId: 'getOrganization',
    summary: 'Read your organization.',
    tag: 'Organizations',
    permission: 'organization:read',
    responses: answers(200, 'The organization', OrganizationResponse),
    async handler(ctx) {
      return { status: 200, body: toOrganizationView(ctx.organization) };
    },
  }),

  defineRoute('POST', `${ORGANIZATION}/projects`, {
    operationId: 'createProject',
    summary: 'Create a project.',
    tag: 'Projects',
    permission: 'projects:manage',
    body: CreateProjectBody,
    responses: answers(201, 'Created', ProjectResponse, { 409: conflictError }),
    async handler(ctx) {
      const project = {
        id: ctx.deps.ids('prj'),
        organization_id: ctx.organization.id,
        slug: ctx.body.slug,
        name: ctx.body.name ?? ctx.body.slug,
        created_at: ctx.at,
      };
      await recordChange(
        ctx,
        async (tx) => {
          if ((await tx.projects.create(project)) === 'exists') {
            throw new LatchkeyError('already_exists', `A project ${ctx.body.slug} already exists.`);
          }
        },
        () => ctx.event('project_created', { project: project.slug }, { project: project.slug }),
      );
      return { status: 201, body: toProjectView(project) };
    },
  }),

  defineRoute('GET', `${ORGANIZATION}/projects`, {
    operationId: 'listProjects',
    summary: 'List the projects you can see.',
    tag: 'Projects',
    permission: 'projects:read',
    ...listing('projects', ProjectResponse, toProjectView, async (ctx) => {
      const projects = await ctx.deps.store.projects.list(ctx.organization.id);
      return projects.filter((p) => canSeeProject(ctx.principal, p.slug));
    }),
  }),

  defineRoute('POST', `${PROJECT}/environments`, {
    operationId: 'createEnvironment',
    summary: 'Create an environment in a project.',
    tag: 'Projects',
    permission: 'environments:manage',
    body: CreateEnvironmentBody,
    responses: answers(201, 'Created', EnvironmentResponse, { 409: conflictError }),
    async handler(ctx) {
      const project = ctx.project!;
      const environment = {
        id: ctx.deps.ids('env'),
        organization_id: ctx.organization.id,
        project_id: project.id,
        slug: ctx.body.slug,
        require_strict_conflict_mode: ctx.body.require_strict_conflict_mode ?? false,
        approval_policy: null,
        created_at: ctx.at,
      };
      await recordChange(
        ctx,
        async (tx) => {
          if ((await tx.environments.create(environment)) === 'exists') {
            throw new LatchkeyError(
              'already_exists',
              `An environment ${ctx.body.slug} already exists in ${project.slug}.`,
            );
          }
        },
        () =>
          ctx.event(
            'environment_created',
            { require_strict_conflict_mode: environment.require_strict_conflict_mode },
            { environment: environment.slug },
          ),
      );
      return { status: 201, body: toEnvironmentView(environment, project.slug) };
    },
  }),

  defineRoute('GET', `${PROJECT}/environments`, {
    operationId: 'listEnvironments',
    summary: 'List the environments of a project.',
    tag: 'Projects',
    permission: 'projects:read',
    ...listing('environments', EnvironmentResponse, environmentView, (ctx) =>
      ctx.deps.store.environments.list(ctx.project!.id),
    ),
  }),

  defineRoute('PATCH', ENVIRONMENT, {
    operationId: 'updateEnvironment',
    summary:
      'Change environment settings: require strict conflict mode for every push, or an approval policy.',
    tag: 'Projects',
    permission: 'environments:manage',
    body: UpdateEnvironmentBody,
    responses: answers(200, 'Updated', EnvironmentResponse, {
      403: error('forbidden: the role lacks environments:manage (owners and admins set approval policies)'),
    }),
    async handler(ctx) {
      const before = ctx.environment!;
      const patch = {
        require_strict_conflict_mode:
          ctx.body.require_strict_conflict_mode ?? before.require_strict_conflict_mode,
        approval_policy:
          ctx.body.approval_policy === undefined
            ? (before.approval_policy ?? null)
            : ctx.body.approval_policy,
      };
      const updated = await recordChange(
        ctx,
        async (tx) => {
          const changed = await tx.environments.update(before.id, patch);
          if (!changed) throw new LatchkeyError('not_found', 'The environment was not found.');
          return changed;
        },
        (changed) =>
          ctx.event('environment_updated', {
            require_strict_conflict_mode: changed.require_strict_conflict_mode,
            ...(ctx.body.approval_policy !== undefined && {
              approval_policy: { from: before.approval_policy ?? null, to: changed.approval_policy ?? null },
            }),
          }),
      );
      return { status: 200, body: toEnvironmentView(updated, ctx.project!.slug) };
    },
  }),
];
