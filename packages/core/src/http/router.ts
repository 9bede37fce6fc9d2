/**
 * The declarative route table: each route names its method, path, permission, input schemas and
 * handler once. Matching, validation and the OpenAPI document all read the same table.
 */
import type { z } from 'zod';
import type { EventData, EventType } from '../activity/event-types/index.js';
import type { Permission, Principal } from '../auth/permissions.js';
import type { CoreRequest, CoreResponse } from '../model/core-request.js';
import type { ActivityDraft, Environment, Organization, Project } from '../model/model.js';
import type { RequestKeys, RequestRecords } from '../store/types.js';
import type { CoreDeps } from './core-deps.js';

/** The request context of an authenticated, scope-resolved route. */
export interface RouteContext<Body = unknown, Query = unknown> {
  request: CoreRequest;
  deps: CoreDeps;
  principal: Principal;
  organization: Organization;
  project: Project | undefined;
  environment: Environment | undefined;
  params: Readonly<Record<string, string>>;
  body: Body;
  /** The body as parsed JSON, before validation (what a signature covers). */
  json: unknown;
  query: Query;
  /** ISO time of this request, taken once. */
  at: string;
  /**
   * Makes this request's activity event (its organization, project and environment, acted by the
   * principal), ready for the store to seal into the chain.
   */
  event<T extends EventType>(type: T, data: EventData<T>, extra?: Partial<ActivityDraft>): ActivityDraft;
  /** The records read with the API token (the route's `prefetch` among them); absent otherwise. */
  records?: RequestRecords | undefined;
}

/**
 * A handler's answer: a status and a JSON body, or a complete response (e.g. a stream). A refusal is
 * thrown instead, as a `LatchkeyError`, recorded (when it is) by whoever decided it.
 */
export type RouteResult =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { response: CoreResponse };

/** A documented response of a route. */
export interface RouteResponseDoc {
  description: string;
  /** The JSON body's schema. */
  schema?: z.ZodType;
  /** For a body that is not JSON (a download): its media types, each a stream of text. */
  mediaTypes?: readonly string[];
}

/** One entry of the route table. */
export interface RouteDefinition<Body = unknown, Query = unknown> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path relative to the base path, with `{param}` segments. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** False for public routes (the OpenAPI document). Default true. */
  auth?: boolean;
  /**
   * For a public route that reads or writes organizations' data (the workload token exchange): it
   * waits for the keyring gate as authenticated routes do, so it answers the same 503 they do.
   */
  gated?: boolean;
  /** Permission checked against the path's project/environment. */
  permission?: Permission;
  body?: z.ZodType<Body>;
  query?: z.ZodType<Query>;
  responses: Record<number, RouteResponseDoc>;
  /**
   * Activity event type the pipeline appends when it refuses a scoped, authenticated request to this
   * route itself (the permission, the input), with the refusal's code and status. Refusals of the
   * handler are the handler's (or its service's) to record, where it decides them.
   */
  rejectedEvent?: EventType;
  /**
   * Records the handler will need, named by the request before it is authenticated or validated
   * (the push's signing device): read in the same step as the token's records (API tokens only),
   * they reach the handler as `ctx.records`. Must not throw; a wrong name only costs a lookup.
   */
  prefetch?(request: CoreRequest): Pick<RequestKeys, 'device'>;
  handler(ctx: RouteContext<Body, Query>): Promise<RouteResult>;
}

/** A route of the table with its input types erased. */
export type AnyRoute = RouteDefinition<never, never>;

/** What a route declares after its method and path. */
export type RouteFields<Body = unknown, Query = unknown> = Omit<
  RouteDefinition<Body, Query>,
  'method' | 'path'
>;

/**
 * Declares a route as its OpenAPI operation reads, `POST /path` first, and keeps its types while
 * placing it in a table of mixed routes.
 */
export function defineRoute<Body = undefined, Query = undefined>(
  method: RouteDefinition['method'],
  path: string,
  route: RouteFields<Body, Query>,
): AnyRoute {
  return { method, path, ...route } as unknown as AnyRoute;
}

interface CompiledRoute {
  route: AnyRoute;
  segments: { literal: string | null; param: string | null }[];
}

/** The result of matching a path. */
export type MatchResult =
  | { kind: 'found'; route: AnyRoute; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/** A compiled route table. Paths are matched segment by segment; literals win over params. */
export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();

  constructor(readonly routes: readonly AnyRoute[]) {
    for (const route of routes) {
      const segments = route.path
        .split('/')
        .filter(Boolean)
        .map((s) =>
          s.startsWith('{') ? { literal: null, param: s.slice(1, -1) } : { literal: s, param: null },
        );
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ route, segments });
      // Routes with more literal segments first, so /audit-webhooks/metrics beats /audit-webhooks/{id}.
      list.sort((a, b) => literalCount(b) - literalCount(a));
      this.byLength.set(segments.length, list);
    }
  }

  /** Matches decoded path segments (relative to the base path) and a method. */
  match(method: string, segments: readonly string[]): MatchResult {
    const candidates = this.byLength.get(segments.length);
    if (!candidates) return { kind: 'not_found' };
    const allow: string[] = [];
    let literals = -1;
    for (const candidate of candidates) {
      // A path its literals name is that route's path for every method: PATCH of
      // /audit-webhooks/metrics is a 405 there, not a PATCH of a webhook named "metrics".
      if (literals > literalCount(candidate)) break;
      const params = matchSegments(candidate, segments);
      if (!params) continue;
      literals = literalCount(candidate);
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      allow.push(candidate.route.method);
    }
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }
}

function literalCount(route: CompiledRoute): number {
  return route.segments.filter((s) => s.literal !== null).length;
}

function matchSegments(route: CompiledRoute, segments: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const spec = route.segments[i]!;
    const value = segments[i]!;
    if (spec.literal !== null) {
      if (spec.literal !== value) return null;
    } else {
      params[spec.param!] = value;
    }
  }
  return params;
}
