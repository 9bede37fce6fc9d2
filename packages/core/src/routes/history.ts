/**
 * History: the organization's, a project's and an environment's activity, newest first, in pages
 * walked with an opaque cursor (`activity/history-page.ts` cuts them), one route at three scopes.
 */

import { historyPage } from '../activity/history-page.js';
import { readableEnvironments } from '../auth/readable-environments.js';
import type { RouteContext, RouteDefinition } from '../http/router.js';
import { HistoryQuery, HistoryResponse } from '../schemas/api.js';
import type { ActivityQuery } from '../store/types.js';
import { answers } from './docs.js';
import { ENVIRONMENT, ORGANIZATION, PROJECT } from './paths.js';
import { routeGroup } from './route-group.js';

type Query = typeof HistoryQuery._zod.output;

const responses = answers(200, 'A page of events, newest first', HistoryResponse);

/** The routes of the activity history: tagged Activity, each reading at its own scope. */
const historyRoute = routeGroup({ tag: 'Activity' });

/** What sets one scope's history route apart: its operation, who may read it, and its events. */
interface HistoryScope extends Pick<RouteDefinition, 'operationId' | 'summary' | 'permission'> {
  /** The events of the scope (the query's own filters are applied to them). */
  filter(ctx: RouteContext<undefined, Query>): Partial<ActivityQuery>;
}

/** `GET <scope>/history`: a page of the scope's events, newest first. */
function historyOf(scope: string, { filter, ...route }: HistoryScope) {
  return historyRoute('GET', `${scope}/history`, {
    ...route,
    query: HistoryQuery,
    responses,
    async handler(ctx) {
      const page = await historyPage(ctx.deps.store, ctx.organization.id, filter(ctx), ctx.query);
      return { status: 200, body: { events: page.events, next_cursor: page.nextCursor } };
    },
  });
}

export const historyRoutes = [
  historyOf(ORGANIZATION, {
    operationId: 'getOrganizationHistory',
    summary: 'The organization’s whole history, newest first (owners and admins).',
    permission: 'activity:read_organization',
    filter: () => ({}),
  }),

  historyOf(PROJECT, {
    operationId: 'getProjectHistory',
    summary: 'A project’s own events and those of the environments you may read, newest first.',
    permission: 'activity:read',
    filter(ctx) {
      const project = ctx.project!.slug;
      return { project, projectEnvironments: readableEnvironments(ctx.principal, project) };
    },
  }),

  historyOf(ENVIRONMENT, {
    operationId: 'getEnvironmentHistory',
    summary: 'An environment’s events, newest first.',
    permission: 'activity:read',
    filter: (ctx) => ({ project: ctx.project!.slug, environment: ctx.environment!.slug }),
  }),
];
