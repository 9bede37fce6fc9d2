/**
 * The steps of the request pipeline between a matched route and its handler: who calls and on what
 * (authentication and scope), whether the role allows it (RBAC), and the validated input.
 */
import { actingEvent } from '../activity/acting.js';
import type { HostAuthenticate } from '../auth/host-identity.js';
import { authorize, type Principal } from '../auth/permissions.js';
import { authenticatePortal, portalBearer } from '../auth/portal-principal.js';
import { authenticate, resolveScope } from '../auth/principal.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { CoreRequest } from '../model/core-request.js';
import type { ActivityDraft, Environment, Organization, Project } from '../model/model.js';
import { portalAllows } from '../portal/capabilities.js';
import type { CoreDeps } from './core-deps.js';
import {
  parseBody,
  parseQuery,
  rejectUnknownQuery,
  splitUrl,
  validate,
  validateParams,
} from './request-input.js';
import type { AnyRoute, RouteContext } from './router.js';

/** The organization, project and environment a request acts on. */
interface Scope {
  organization: Organization;
  project: Project | undefined;
  environment: Environment | undefined;
}

/**
 * The context of an authenticated request, its input not read yet: the principal (a 401 without
 * one), the scope its path names (a 404 outside the caller's organization) and its event maker.
 */
export async function scopeRequest(
  request: CoreRequest,
  params: Record<string, string>,
  deps: CoreDeps,
  hostAuthenticate: HostAuthenticate | undefined,
  route?: AnyRoute,
): Promise<RouteContext> {
  // A portal session's token is the core's own, whatever authenticates the host's other callers.
  const portalToken = portalBearer(request);
  const { principal, records } = portalToken
    ? await authenticatePortal(deps.store, portalToken, deps.now())
    : await authenticate(
        request,
        deps.store,
        hostAuthenticate,
        params,
        route?.prefetch?.(request),
        deps.now(),
      );
  const checked = validateParams(params);
  const scope = await resolveScope(deps.store, principal, checked, records);
  const at = new Date(deps.now()).toISOString();
  return {
    request,
    deps,
    principal,
    ...scope,
    params: checked,
    body: undefined,
    json: undefined,
    query: undefined,
    at,
    event: eventMaker(principal, scope, at, deps),
    records,
  };
}

/** Makes the request's activity events: its scope, acted by the principal, at the request's time. */
function eventMaker(principal: Principal, scope: Scope, at: string, deps: CoreDeps): RouteContext['event'] {
  return (type, data, extra): ActivityDraft =>
    actingEvent(deps.ids, { principal, ...scope, at }, type, data, extra);
}

/**
 * A 403 `forbidden` unless the principal's role allows the route's permission on the path's scope,
 * and, for a portal session's token, unless the session's capabilities open the route too.
 */
export function authorizeRoute(route: AnyRoute, ctx: RouteContext): void {
  const portal =
    ctx.principal.portal &&
    portalAllows(ctx.principal.portal, route, parseQuery(splitUrl(ctx.request.url).rawQuery));
  if (portal && !portal.ok) throw new LatchkeyError('forbidden', portal.reason);
  if (!route.permission) return;
  const decision = authorize(ctx.principal, route.permission, {
    project: ctx.project?.slug,
    environment: ctx.environment?.slug,
  });
  if (!decision.ok) {
    throw new LatchkeyError('forbidden', `Your role does not allow ${route.permission} here.`);
  }
}

/** Reads the query and the body into `ctx`, each validated against the route's schema (a 400 if not). */
export function readRouteInput(ctx: RouteContext, route: AnyRoute, rawQuery: string | undefined): void {
  const query = parseQuery(rawQuery);
  ctx.json = parseBody(ctx.request, route);
  ctx.body = route.body ? validate(route.body, ctx.json, 'body') : undefined;
  ctx.query = route.query ? validate(route.query, query, 'query') : rejectUnknownQuery(query);
}
