/**
 * The handler of a route that is one call of a domain service: what the request asks goes in, the
 * result's view comes out, answered with the route's status. The service gets the core's
 * dependencies and the caller (`Acting`), never the request context.
 */
import type { Acting } from '../activity/acting.js';
import type { CoreDeps } from '../http/core-deps.js';
import type { RouteContext, RouteResult } from '../http/router.js';

/** A domain service as a route calls it: the core's parts it uses, the caller, what the request asks. */
export type ActingService<Input, Result> = (deps: CoreDeps, acting: Acting, input: Input) => Promise<Result>;

/** The input of a service that takes the request's validated body. */
export const theBody = <Body>(ctx: RouteContext<Body>): Body => ctx.body;

/** The input of a service that takes the id in the path's parameter `name`. */
export const pathParam =
  (name: string) =>
  (ctx: RouteContext): string =>
    ctx.params[name]!;

/** The handler that calls `service` with `input` of the request and answers `status` with `view` of its result. */
export function serviceCall<Body, Input, Result>(
  service: ActingService<Input, Result>,
  input: (ctx: RouteContext<Body>) => Input,
  view: (result: Result, ctx: RouteContext<Body>) => unknown,
  status = 200,
): (ctx: RouteContext<Body>) => Promise<RouteResult> {
  return async (ctx) => {
    const result = await service(ctx.deps, ctx, input(ctx));
    return { status, body: await view(result, ctx) };
  };
}
