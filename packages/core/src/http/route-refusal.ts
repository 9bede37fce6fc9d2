/**
 * The refusals the pipeline itself decides for a scoped request (the route's permission, its input),
 * recorded where they are decided as the route's `rejectedEvent`. A handler's refusals are recorded
 * by the service that decides them.
 */

import { isLatchkeyError } from '../errors/latchkey-error.js';
import type { CoreLogger } from '../runtime/logger.js';
import type { AnyRoute, RouteContext } from './router.js';
import { paramSchemas } from './validation.js';

/**
 * Appends the route's `rejectedEvent` for `error`, when the route records its refusals and `error` is
 * one; a failure to append is only logged, so the refusal is answered all the same.
 */
export async function recordRouteRefusal(
  logger: CoreLogger,
  route: AnyRoute,
  ctx: RouteContext,
  error: unknown,
): Promise<void> {
  if (!route.rejectedEvent || !isLatchkeyError(error)) return;
  try {
    const json = ctx.json as { device_id?: unknown } | undefined;
    // Only a well-formed device id from the body reaches the log; anything else is left out.
    const deviceId =
      json && paramSchemas['device']!.safeParse(json.device_id).success
        ? (json.device_id as string)
        : undefined;
    await ctx.deps.store.activity.append(
      ctx.organization.id,
      ctx.event(route.rejectedEvent, { reason: error.code, status: error.status }, { device_id: deviceId }),
    );
  } catch (appendError) {
    logger.error('could not record a rejected request', {
      error: appendError instanceof Error ? appendError.message : String(appendError),
    });
  }
}
