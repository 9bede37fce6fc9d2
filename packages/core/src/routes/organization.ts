/** Organizations, projects and environments. */

import { LatchkeyError } from '../errors.js';
import { canSeeProject } from '../permissions.js';
import { defineRoute } from '../router.js';
import {
  CreateEnvironmentBody,
  CreateProjectBody,
  EnvironmentResponse,
  listOf,
  OrganizationResponse,
  ProjectResponse,
  UpdateEnvironmentBody,
} from '../schemas.js';
import { commonErrors, conflictError } from './docs.js';
import { toEnvironmentView, toOrganizationView, toProjectView } from './views.js';

const ORG = '/organizations/{organization}';
const PROJECT = `${ORG}/projects/{project}`;

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
      await store.transaction(async (tx) => {
        if ((await tx.projects.create(project)) === 'exists') {
          throw new LatchkeyError('already_exists', `A project ${ctx.body.slug} already exists.`);
        }
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('project_created', { project: project.slug }, { project: project.slug }),
        );
      });
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
      200: { description: 'Projects', schema: listOf('projects', ProjectResponse) },
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
      await ctx.services.store.transaction(async (tx) => {
        if ((await tx.environments.create(environment)) === 'exists') {
          throw new LatchkeyError(
            'already_exists',
            `An environment ${ctx.body.slug} already exists in ${project.slug}.`,
          );
        }
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft(
            'environment_created',
            { require_strict_conflict_mode: environment.require_strict_conflict_mode },
            { environment: environment.slug },
          ),
        );
      });
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
      200: { description: 'Environments', schema: listOf('environments', EnvironmentResponse) },
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
      const updated = await ctx.services.store.transaction(async (tx) => {
        const changed = await tx.environments.update(ctx.environment!.id, ctx.body);
        if (!changed) throw new LatchkeyError('not_found', 'The environment was not found.');
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('environment_updated', {
            require_strict_conflict_mode: changed.require_strict_conflict_mode,
          }),
        );
        return changed;
      });
      return { status: 200, body: toEnvironmentView(updated, ctx.project!.slug) };
    },
  }),
];
