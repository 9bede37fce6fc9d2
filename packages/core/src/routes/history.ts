/**
 * History: the organization's, a project's and an environment's activity, newest first, in pages
 * walked with an opaque cursor. Pages are cut by `seq` (keyset), so a walk returns every event once
 * even while new ones are written: those land above the first page, never between two pages.
 */

import { readableEnvironments } from '../auth/readable-environments.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext, RouteDefinition } from '../http/router.js';
import type { ActivityEvent } from '../model/model.js';
import { HistoryQuery, HistoryResponse } from '../schemas/api.js';
import type { ActivityQuery } from '../store/types.js';
import { answers } from './docs.js';
import { ENVIRONMENT, ORGANIZATION, PROJECT } from './paths.js';
import { routeGroup } from './route-group.js';

type Query = typeof HistoryQuery._zod.output;

const responses = answers(200, 'A page of events, newest first', HistoryResponse);

/** The cursor of the page after the one ending at `seq`: opaque to clients, a version and the seq inside. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`c1:${seq}`).toString('base64url');
}

/** The `seq` a cursor stands for, or a 400 for anything not made by {@link encodeCursor}. */
export function decodeCursor(cursor: string): number {
  const match = /^c1:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const seq = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(seq)) {
    throw new LatchkeyError('invalid_request', 'The cursor is not one this API gave out.', {
      details: [{ path: 'query.cursor', message: 'not a next_cursor of an earlier page' }],
    });
  }
  return seq;
}

/** One page of the events `filter` selects, with the query's own filters applied. */
async function page(ctx: RouteContext<undefined, Query>, filter: Partial<ActivityQuery>) {
  const query = ctx.query;
  const limit = query.limit ?? 50;
  const events: ActivityEvent[] = await ctx.deps.store.activity.list({
    organizationId: ctx.organization.id,
    ...filter,
    types: query.type?.split(','),
    since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
    until: query.until === undefined ? undefined : new Date(query.until).toISOString(),
    beforeSeq: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  const shown = events.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    status: 200,
    body: { events: shown, next_cursor: events.length > limit && last ? encodeCursor(last.seq) : null },
  };
}

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
    handler: (ctx) => page(ctx, filter(ctx)),
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
