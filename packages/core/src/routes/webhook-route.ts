/**
 * What the audit-webhook routes share: their group (tag and permission), the caller the webhook
 * service takes in place of the request context, the path's webhook, and the handler that is one
 * call into the service answered with the result's view.
 */
import type { WebhookCaller } from '../delivery/webhooks/caller.js';
import type { CoreDeps } from '../http/core-deps.js';
import type { RouteContext, RouteResult } from '../http/router.js';
import { routeGroup } from './route-group.js';

/** The routes of audit webhooks: all tagged alike, all for holders of audit_webhooks:manage. */
export const webhookRoute = routeGroup({ tag: 'Audit webhooks', permission: 'audit_webhooks:manage' });

/** Who changes the organization's webhooks, and when: the request as the webhook service sees it. */
export const webhookCaller = (ctx: RouteContext): WebhookCaller => ({
  organization: ctx.organization,
  user: ctx.principal.user,
  at: ctx.at,
});

/** The id of the webhook the path names. */
export const webhookParam = (ctx: RouteContext): string => ctx.params['auditWebhook']!;

/** A webhook service's decision on the path's webhook, with the request's body where the route has one. */
export type WebhookAction<Body, Result> = (
  deps: CoreDeps,
  caller: WebhookCaller,
  webhookId: string,
  body: Body,
) => Promise<Result>;

/** The handler of a route on one webhook: `act` on it, answered `status` with `view` of the result. */
export function webhookAction<Body, Result>(
  act: WebhookAction<Body, Result>,
  view: (result: Result) => unknown,
  status = 200,
): (ctx: RouteContext<Body>) => Promise<RouteResult> {
  return async (ctx) => {
    const result = await act(ctx.deps, webhookCaller(ctx), webhookParam(ctx), ctx.body);
    return { status, body: view(result) };
  };
}
