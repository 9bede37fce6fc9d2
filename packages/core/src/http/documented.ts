/** Whether an answer is what its route documents (the `validateResponses` option). */
import type { AnyRoute, RouteResult } from './router.js';

/** Throws (an internal error) when a JSON answer does not match the schema its route documents. */
export function checkDocumented(route: AnyRoute, result: RouteResult): void {
  if ('response' in result) return;
  const drift = undocumented(route, result.status, result.body);
  if (drift) throw new Error(drift);
}

/**
 * Why an answer (a success or an error) is not what its route documents, or null when it is: the
 * status must be listed in the route's responses and the body must match that status's schema.
 */
export function undocumented(route: AnyRoute, status: number, body: unknown): string | null {
  const documented = route.responses[status];
  if (!documented) return `${route.operationId} answered ${status}, which it does not document`;
  const check = documented.schema?.safeParse(body);
  if (check && !check.success) {
    return `${route.operationId} answered ${status} off its schema: ${check.error.message}`;
  }
  return null;
}
