/**
 * Organizations, projects and environments: each change a call into `organizations/`, answered with
 * its view.
 */

import { defineRoute, type RouteContext } from '../http/router.js';
import { toEnvironmentView, toOrganizationView, toProjectView } from '../http/views.js';
import type { Environment } from '../model/model.js';
import { createEnvironment } from '../organizations/create-environment.js';
import { createProject } from '../organizations/create-project.js';
import { updateEnvironment } from '../organizations/update-environment.js';
import { visibleProjects } from '../organizations/visible-projects.js';
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
import { serviceCall, theBody } from './service-call.js';

/** An environment as listed: with the slug of the project the path names. */
const environmentView = (environment: Environment, ctx: Pick<RouteContext, 'project'>) =>
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
    handler: serviceCall(createProject, theBody, toProjectView, 201),
  }),

  defineRoute('GET', `${ORGANIZATION}/projects`, {
    operationId: 'listProjects',
    summary: 'List the projects you can see.',
    tag: 'Projects',
    permission: 'projects:read',
    ...listing('projects', ProjectResponse, toProjectView, (ctx) => visibleProjects(ctx.deps.store, ctx)),
  }),

  defineRoute('POST', `${PROJECT}/environments`, {
    operationId: 'createEnvironment',
    summary: 'Create an environment in a project.',
    tag: 'Projects',
    permission: 'environments:manage',
    body: CreateEnvironmentBody,
    responses: answers(201, 'Created', EnvironmentResponse, { 409: conflictError }),
    handler: serviceCall(createEnvironment, theBody, environmentView, 201),
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
    handler: serviceCall(updateEnvironment, theBody, environmentView),
  }),
];
