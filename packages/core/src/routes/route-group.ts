/** Routes of one file that share their tag, and their permission where all need the same. */
import type { Permission } from '../auth/permissions.js';
import type { AnyRoute, RouteDefinition, RouteFields } from '../http/router.js';

/** What a group's routes share: always the tag, and the permission when every route checks the same. */
export interface SharedFields {
  tag: string;
  permission?: Permission;
}

/**
 * Declares the routes of a group: each names its own fields, the group adds `shared`, which is
 * written once at the top of the file instead of in every route.
 */
export function routeGroup<const S extends SharedFields>(shared: S) {
  return <Body = undefined, Query = undefined>(
    method: RouteDefinition['method'],
    path: string,
    route: Omit<RouteFields<Body, Query>, keyof S>,
  ): AnyRoute =>
    // The shared fields complete the route; as defineRoute does, its input types are erased in the table.
    ({ method, path, ...shared, ...route }) as unknown as AnyRoute;
}
