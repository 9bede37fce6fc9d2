/**
 * The request pipeline behind `core.handle`, written once for every adapter: routing under the base
 * path, the body limit, the keyring check, authentication and scope, RBAC, input validation, the
 * handler, the response check of `validateResponses`, and the mapping of every failure to its
 * documented error body.
 */
import type { HostAuthenticate } from '../auth/host-identity.js';
import { LatchkeyError, notFound } from '../errors/latchkey-error.js';
import type { AnsweredRequest } from '../metrics/http-metrics.js';
import { type CoreRequest, type CoreResponse, jsonResponse } from '../model/core-request.js';
import { traceRequest } from '../telemetry/tracing.js';
import type { CoreDeps } from './core-deps.js';
import { checkDocumented } from './documented.js';
import { answerError, type ErrorAnswerDeps, type RequestProgress } from './error-answer.js';
import { bodySize, splitUrl } from './request-input.js';
import { authorizeRoute, readRouteInput, scopeRequest } from './route-context.js';
import { recordRouteRefusal } from './route-refusal.js';
import { type AnyRoute, type MatchResult, type RouteContext, type RouteResult, Router } from './router.js';

/** What the pipeline needs from its core. */
export interface PipelineDeps extends ErrorAnswerDeps {
  routes: readonly AnyRoute[];
  /** The base path without a trailing slash. */
  basePath: string;
  bodyLimit: number;
  services: CoreDeps;
  /** The core option `authenticate`: the host app's own authentication, instead of API tokens. */
  authenticate: HostAuthenticate | undefined;
  /** Resolves once the keyring opens the store's data; a 503 while it does not. */
  keyringGate: ErrorAnswerDeps['keyringGate'] & { admit(): Promise<void> };
  /** Told of every answer, once it is made (the HTTP metrics). */
  onAnswered?: (answer: AnsweredRequest) => void;
}

/** Makes `core.handle`: never throws, every failure becomes the documented error body. */
export function createPipeline(deps: PipelineDeps): (request: CoreRequest) => Promise<CoreResponse> {
  const router = new Router(deps.routes);
  const baseSegments = deps.basePath.split('/').filter(Boolean);
  const { services, bodyLimit } = deps;

  async function answer(request: CoreRequest, progress: RequestProgress): Promise<CoreResponse> {
    try {
      const { segments, rawQuery } = splitUrl(request.url);
      const match = matchRoute(router, baseSegments, request.method, segments);
      if (match.kind === 'method_not_allowed') return methodNotAllowed(match.allow);
      const route = match.route;
      progress.route = route;
      if (bodySize(request.body) > bodyLimit) {
        throw new LatchkeyError('payload_too_large', `The request body exceeds ${bodyLimit} bytes.`);
      }
      if (route.auth === false) {
        if (route.gated) await deps.keyringGate.admit();
        return toResponse(await route.handler({ deps: services, request } as RouteContext<never, never>));
      }
      // Nothing is read or sealed before the keyring is known to open the store's data.
      await deps.keyringGate.admit();
      const ctx = await scopeRequest(request, match.params, services, deps.authenticate, route);
      progress.ctx = ctx;
      try {
        authorizeRoute(route, ctx);
        readRouteInput(ctx, route, rawQuery);
      } catch (error) {
        await recordRouteRefusal(deps.logger, route, ctx, error);
        throw error;
      }
      const result = await route.handler(ctx as RouteContext<never, never>);
      if (deps.validateResponses) checkDocumented(route, result);
      return toResponse(result);
    } catch (error) {
      return answerError(deps, request, error, progress);
    }
  }

  return async function handle(request) {
    const began = performance.now();
    const progress: RequestProgress = {};
    const response = await traceRequest(
      request.method,
      request.headers,
      () => answer(request, progress),
      (answered) => ({
        route: progress.route ? `${deps.basePath}${progress.route.path}` : undefined,
        operation: progress.route?.operationId,
        organization: progress.ctx?.organization.slug,
        status: answered.status,
        errorCode: progress.errorCode,
      }),
    );
    deps.onAnswered?.({
      route: progress.route?.operationId,
      method: request.method,
      status: response.status,
      durationMs: performance.now() - began,
      errorCode: progress.errorCode,
    });
    return response;
  };
}

/** The route a method and path name under the base path; a 404 `not_found` when none does. */
function matchRoute(
  router: Router,
  baseSegments: readonly string[],
  method: string,
  segments: readonly string[],
): Exclude<MatchResult, { kind: 'not_found' }> {
  if (!startsWith(segments, baseSegments)) throw notFound();
  const match = router.match(method.toUpperCase(), segments.slice(baseSegments.length));
  if (match.kind === 'not_found') throw notFound();
  return match;
}

/** A 405 with `Allow`: the path exists, with other methods. */
function methodNotAllowed(methods: readonly string[]): CoreResponse {
  const allow = [...new Set(methods)].join(', ');
  const body = new LatchkeyError('method_not_allowed', `This path accepts ${allow}.`).toBody();
  return jsonResponse(405, body, { allow });
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  if (segments.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return false;
  return true;
}

function toResponse(result: RouteResult): CoreResponse {
  return 'response' in result ? result.response : jsonResponse(result.status, result.body, result.headers);
}
